// The development-version check on its own: which header values are accepted.
#include <gtest/gtest.h>

#include "core/model/otlp_profiles_version.h"

namespace proflow {
namespace {

TEST(ProfilesVersion, CheckAcceptsNothingOrOne) {
  EXPECT_TRUE(checkProfilesVersion({}).isOk());
  EXPECT_TRUE(checkProfilesVersion({"1"}).isOk());
  for (std::vector<std::string_view> bad :
       {std::vector<std::string_view>{"2"}, {"0"}, {"-1"}, {"01"}, {"1.0"}, {""}, {"abc"}, {"1", "1"},
        {"99999999999999999999999"}}) {
    Status s = checkProfilesVersion(bad);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << (bad.empty() ? "" : bad[0]);
    EXPECT_NE(s.message().find("supported: 1"), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace proflow
