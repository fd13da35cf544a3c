#include <gtest/gtest.h>

#include "core/config/config_types.h"

namespace proflow::config {
namespace {

TEST(ConfigTypes, ParsesDurations) {
  EXPECT_EQ(parseDuration("5s")->value, std::chrono::seconds(5));
  EXPECT_EQ(parseDuration("250ms")->value, std::chrono::milliseconds(250));
  EXPECT_EQ(parseDuration("1m30s")->value, std::chrono::seconds(90));
  EXPECT_EQ(parseDuration("2h")->value, std::chrono::hours(2));
  EXPECT_EQ(parseDuration("0")->value.count(), 0);
  EXPECT_FALSE(parseDuration("5"));
  EXPECT_FALSE(parseDuration("5 seconds"));
  EXPECT_FALSE(parseDuration(""));
  EXPECT_FALSE(parseDuration("s"));
}

TEST(ConfigTypes, ParsesSizes) {
  EXPECT_EQ(parseByteSize("64MiB")->bytes, 64ull << 20);
  EXPECT_EQ(parseByteSize("512KiB")->bytes, 512ull << 10);
  EXPECT_EQ(parseByteSize("1GB")->bytes, 1000000000ull);
  EXPECT_EQ(parseByteSize("1048576")->bytes, 1048576ull);
  EXPECT_FALSE(parseByteSize("lots"));
  EXPECT_FALSE(parseByteSize("99999999999999999999GiB"));
  EXPECT_EQ(ByteSize(64ull << 20).str(), "64MiB");
}

}  // namespace
}  // namespace proflow::config
