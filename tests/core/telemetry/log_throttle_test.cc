// LogThrottle on its own (the OTLP receiver tests send it a flood of invalid UTF-8).
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>

#include "core/telemetry/log_throttle.h"

namespace proflow::telemetry {
namespace {

TEST(LogThrottle, OneLinePerKeyPerIntervalAndCountsTheRest) {
  LogThrottle throttle(std::chrono::hours(1));
  uint64_t suppressed = 99;
  EXPECT_TRUE(throttle.allow("a", &suppressed));
  EXPECT_EQ(suppressed, 0u);
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(throttle.allow("a"));
  EXPECT_TRUE(throttle.allow("b")) << "keys are limited separately";
  LogThrottle every_time(std::chrono::seconds(0));
  EXPECT_TRUE(every_time.allow("a"));
  EXPECT_TRUE(every_time.allow("a"));
}

TEST(LogThrottle, KeysBeyondTheCapShareOneEntry) {
  LogThrottle throttle(std::chrono::hours(1), 2);
  EXPECT_TRUE(throttle.allow("a"));
  EXPECT_TRUE(throttle.allow("b"));
  EXPECT_TRUE(throttle.allow("c"));
  EXPECT_FALSE(throttle.allow("d")) << "c and d share the overflow entry";
}

TEST(LogThrottle, NextLineSaysHowManyWereSuppressed) {
  std::ostringstream out;
  auto logger = std::make_shared<spdlog::logger>("t", std::make_shared<spdlog::sinks::ostream_sink_mt>(out));
  logger->set_pattern("%v");
  LogThrottle throttle(std::chrono::milliseconds(0));
  throttle.log(*logger, spdlog::level::warn, "k", "first");
  EXPECT_EQ(out.str(), "first\n");
  LogThrottle slow(std::chrono::hours(1));
  slow.log(*logger, spdlog::level::warn, "k", "x");
  for (int i = 0; i < 3; ++i) slow.log(*logger, spdlog::level::warn, "k", "x");
  EXPECT_EQ(out.str(), "first\nx\n");
}

}  // namespace
}  // namespace proflow::telemetry
