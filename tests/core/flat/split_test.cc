#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/batch.h"
#include "core/request_merger.h"
#include "processors/batch/request_splitter.h"
#include "tests/support/profile_builder.h"

namespace proflow::processors::batch {
namespace {

using ::proflow::testing::dictionaryProblems;
using ::proflow::testing::makeProfile;
using ::proflow::testing::makeRequest;
using ::proflow::testing::ProfileSpec;
using ::testing::IsEmpty;

// Two resources: "a" with 6 profiles, "b" with 4, every profile with one distinct leaf function.
otlp::Request tenProfiles() {
  auto profile = [](int i) {
    ProfileSpec p;
    p.samples.push_back({{"leaf" + std::to_string(i), "main"}, i});
    return p;
  };
  std::vector<ProfileSpec> a, b;
  for (int i = 0; i < 6; ++i) a.push_back(profile(i));
  for (int i = 6; i < 10; ++i) b.push_back(profile(i));
  otlp::Request r = makeRequest("a", a);
  RequestMerger(&r).append(makeRequest("b", b));
  return r;
}

TEST(RequestSplitter, CutsIntoPartsOfAtMostNProfilesInOrder) {
  // [a0..a3] [a4 a5 | b6 b7] [b8 b9]: the middle part straddles both resources.
  auto parts = splitRequest(tenProfiles(), 4);
  ASSERT_EQ(parts.size(), 3u);
  std::vector<std::string> services;
  int next_value = 0;
  for (const auto& part : parts) {
    EXPECT_THAT(dictionaryProblems(part), IsEmpty());
    EXPECT_LE(countRequest(part).profiles, 4u);
    for (int r = 0; r < part.resource_profiles_size(); ++r) {
      services.push_back(testing::serviceName(part, r));
      for (const auto& p : part.resource_profiles(r).scope_profiles(0).profiles()) {
        const auto& s = p.samples(0);
        EXPECT_EQ(s.values(0), next_value);
        EXPECT_EQ(testing::stackFrames(part.dictionary(), s.stack_index()),
                  (std::vector<std::string>{"leaf" + std::to_string(next_value), "main"}));
        ++next_value;
      }
    }
  }
  EXPECT_EQ(next_value, 10);
  EXPECT_EQ(services, (std::vector<std::string>{"a", "a", "b", "b"}));
}

TEST(RequestSplitter, EachPartCarriesOnlyWhatItsProfilesReference) {
  auto parts = splitRequest(tenProfiles(), 3);
  const auto& strings = parts[0].dictionary().string_table();
  auto has = [&](const std::string& s) { return std::find(strings.begin(), strings.end(), s) != strings.end(); };
  EXPECT_TRUE(has("leaf0"));
  EXPECT_TRUE(has("leaf2"));
  EXPECT_FALSE(has("leaf3"));
  EXPECT_FALSE(has("leaf9"));
}

TEST(RequestSplitter, SmallRequestsPassThroughUntouched) {
  otlp::Request r = tenProfiles();
  const std::string before = r.SerializeAsString();
  auto parts = splitRequest(std::move(r), 10);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].SerializeAsString(), before);
  EXPECT_EQ(splitRequest(tenProfiles(), 0).size(), 1u);
}

}  // namespace
}  // namespace proflow::processors::batch
