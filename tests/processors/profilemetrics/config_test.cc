// Config decoding and validation of the profilemetrics processor (each error at its field), and the
// names and label values it exposes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "processors/profilemetrics/factory.h"
#include "processors/profilemetrics/metric_naming.h"
#include "tests/support/component_config.h"

namespace proflow::processors::profilemetrics {
namespace {

using ::testing::HasSubstr;

std::string errorsOf(const std::string& yaml) {
  return ::proflow::testing::checkComponentConfig(*makeProfileMetricsProcessorFactory(), yaml,
                                                  "processors.profilemetrics")
      .format();
}

TEST(ProfileMetricsConfig, ValidConfigsPass) {
  EXPECT_EQ(errorsOf(""), "");
  EXPECT_EQ(errorsOf("top_n: 20\nwindow: 15s\nmax_series: 500\nmax_label_length: 64\nidle_timeout: 0s\n"), "");
  EXPECT_EQ(errorsOf("top_n: 0\n"), "");
}

TEST(ProfileMetricsConfig, EveryBadValueIsReportedAtItsLine) {
  const std::string errors = errorsOf(
      "top_n: 5000\nwindow: 0s\nmax_series: 0\nmax_tracked_functions: 3\nmax_label_length: 4\n");
  EXPECT_THAT(errors, HasSubstr("t.yaml:1:1"));
  EXPECT_THAT(errors, HasSubstr("top_n must be within 0..1000, got 5000"));
  EXPECT_THAT(errors, HasSubstr("t.yaml:2:1"));
  EXPECT_THAT(errors, HasSubstr("window must be > 0"));
  EXPECT_THAT(errors, HasSubstr("t.yaml:3:1"));
  EXPECT_THAT(errors, HasSubstr("max_series must be >= 1"));
  EXPECT_THAT(errors, HasSubstr("t.yaml:4:1"));
  EXPECT_THAT(errors, HasSubstr("max_tracked_functions (3) must be >= top_n (5000)"));
  EXPECT_THAT(errors, HasSubstr("t.yaml:5:1"));
  EXPECT_THAT(errors, HasSubstr("max_label_length must be within 16..1024, got 4"));
  EXPECT_THAT(errorsOf("window: 1m\nidle_timeout: 1s\n"), HasSubstr("t.yaml:2:1"));
  EXPECT_THAT(errorsOf("idle_timeout: 1s\n"), HasSubstr("idle_timeout must be 0 (never) or at least window"));
  EXPECT_THAT(errorsOf("topn: 5\n"), HasSubstr("unknown key 'topn'"));
  EXPECT_THAT(errorsOf("window: soon\n"), HasSubstr("t.yaml:1:"));
}

TEST(ProfileMetricsNaming, UnitsAsOpenMetricsNamesThem) {
  auto n = nameSampleType("cpu", "nanoseconds");
  EXPECT_EQ(n.stem, "cpu_seconds");
  EXPECT_EQ(n.unit, "seconds");
  EXPECT_EQ(n.divisor, 1e9);
  EXPECT_EQ(totalFamily(n), "proflow_profile_cpu_seconds_total");
  EXPECT_EQ(selfFamily(n), "proflow_profile_function_self_cpu_seconds_total");
  EXPECT_EQ(inclusiveFamily(n), "proflow_profile_function_inclusive_cpu_seconds_total");
  EXPECT_EQ(nameSampleType("wall", "milliseconds").divisor, 1e3);
  EXPECT_EQ(nameSampleType("alloc_space", "bytes").stem, "alloc_space_bytes");
  EXPECT_EQ(nameSampleType("samples", "count").stem, "samples");
  EXPECT_EQ(nameSampleType("samples", "count").unit, "");
  EXPECT_EQ(nameSampleType("inuse_bytes", "bytes").stem, "inuse_bytes");
  EXPECT_EQ(nameSampleType("Lock Wait", "").stem, "lock_wait");
  EXPECT_EQ(nameSampleType("", "").stem, "unknown");
  EXPECT_EQ(nameSampleType("9x", "widgets").stem, "type_9x_widgets");
  EXPECT_EQ(nameSampleType(std::string(500, 'a'), "").stem.size(), 64u);
}

TEST(ProfileMetricsNaming, LabelValuesStayValidUtf8AndBounded) {
  bool cut = false;
  EXPECT_EQ(capLabelValue("short", 16, &cut), "short");
  EXPECT_FALSE(cut);
  EXPECT_EQ(capLabelValue("a\xff" "b", 16, &cut), "a?b");  // invalid byte replaced
  EXPECT_EQ(capLabelValue("\xe2\x82\xac\xe2\x82\xac", 5, &cut), "\xe2\x82\xac");  // no half character
  EXPECT_TRUE(cut);
  EXPECT_EQ(capLabelValue("\xed\xa0\x80", 16, &cut), "???");  // a surrogate is not UTF-8
  EXPECT_EQ(idHex(std::string("\x00\x01\xab", 3)), "0001ab");
  EXPECT_EQ(idHex(std::string(16, '\0')), "");
}

}  // namespace
}  // namespace proflow::processors::profilemetrics
