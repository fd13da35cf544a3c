// Config decoding and validation of the `self` receiver: every bad value reported at once, with
// the file:line of the key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "receivers/self/config.h"
#include "receivers/self/factory.h"
#include "tests/support/component_config.h"

namespace proflow::receivers::self {
namespace {

using ::testing::HasSubstr;

TEST(SelfConfig, DefaultsAreValidAndSampleAt19HzEveryMinute) {
  auto factory = makeSelfReceiverFactory();
  SelfReceiverConfig c;
  auto errors = proflow::testing::checkComponentConfig(*factory, "{}", "receivers.self", &c);
  EXPECT_TRUE(errors.empty()) << errors.format();
  EXPECT_EQ(c.frequency, 19u);
  EXPECT_EQ(c.interval.value, std::chrono::seconds(60));
  EXPECT_EQ(c.mode, "auto");
  EXPECT_TRUE(c.heap);
}

TEST(SelfConfig, DecodesEveryKey) {
  auto factory = makeSelfReceiverFactory();
  SelfReceiverConfig c;
  auto errors = proflow::testing::checkComponentConfig(*factory, R"(
interval: 5s
frequency: 99
mode: timer
attributes: { deployment.environment: prod }
max_stack_depth: 64
thread_scan_interval: 500ms
heap: false
)", "receivers.self", &c);
  EXPECT_TRUE(errors.empty()) << errors.format();
  EXPECT_EQ(c.interval.value, std::chrono::seconds(5));
  EXPECT_EQ(c.frequency, 99u);
  EXPECT_EQ(c.mode, "timer");
  EXPECT_EQ(c.attributes.at("deployment.environment"), "prod");
  EXPECT_EQ(c.max_stack_depth, 64u);
  EXPECT_EQ(c.thread_scan_interval.value, std::chrono::milliseconds(500));
  EXPECT_FALSE(c.heap);
}

TEST(SelfConfig, EveryBadValueIsReportedWithItsLine) {
  auto factory = makeSelfReceiverFactory();
  auto errors = proflow::testing::checkComponentConfig(*factory, R"(interval: 100ms
frequency: 5000
mode: ebpf
max_stack_depth: 0
thread_scan_interval: 5m
)", "receivers.self");
  const std::string all = errors.format();
  EXPECT_THAT(all, HasSubstr("t.yaml:1"));
  EXPECT_THAT(all, HasSubstr("receivers.self.interval"));
  EXPECT_THAT(all, HasSubstr("t.yaml:2"));
  EXPECT_THAT(all, HasSubstr("between 1 and 1000 (Hz), got 5000"));
  EXPECT_THAT(all, HasSubstr("t.yaml:3"));
  EXPECT_THAT(all, HasSubstr("one of auto, perf_event, timer; got 'ebpf'"));
  EXPECT_THAT(all, HasSubstr("t.yaml:4"));
  EXPECT_THAT(all, HasSubstr("receivers.self.max_stack_depth"));
  EXPECT_THAT(all, HasSubstr("t.yaml:5"));
  EXPECT_THAT(all, HasSubstr("receivers.self.thread_scan_interval"));
}

TEST(SelfConfig, ZeroFrequencyAndUnknownKeysAreErrors) {
  auto factory = makeSelfReceiverFactory();
  auto errors = proflow::testing::checkComponentConfig(*factory, "frequency: 0\nfrequencey: 19\n", "receivers.self");
  const std::string all = errors.format();
  EXPECT_THAT(all, HasSubstr("between 1 and 1000"));
  EXPECT_THAT(all, HasSubstr("frequencey"));
}

}  // namespace
}  // namespace proflow::receivers::self
