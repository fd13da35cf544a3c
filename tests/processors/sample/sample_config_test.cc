// Config decoding and validation of the sample processor: each bad value is reported at its field.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/config/config_loader.h"
#include "processors/sample/factory.h"
#include "tests/support/component_config.h"

namespace proflow::processors::sample {
namespace {

using ::testing::HasSubstr;

std::string errorsOf(const std::string& yaml) {
  return ::proflow::testing::checkComponentConfig(*makeSampleProcessorFactory(), yaml, "processors.sample").format();
}

TEST(SampleConfig, ValidConfigsPass) {
  EXPECT_EQ(errorsOf("mode: probabilistic\npercentage: 25\nhash_key: [service.name]\n"), "");
  EXPECT_EQ(errorsOf("mode: rate_limit\nlimit: 5\non_limit: drop\nunit: samples\n"), "");
  EXPECT_EQ(errorsOf("mode: downsample\nprobability: 0.25\nseed: 3\nkeep_unique_by: [service.name]\n"), "");
}

TEST(SampleConfig, BadValuesAreReportedWithTheirLocation) {
  EXPECT_THAT(errorsOf("mode: sometimes\n"), HasSubstr("t.yaml:1:1"));
  EXPECT_THAT(errorsOf("mode: sometimes\n"), HasSubstr("mode must be probabilistic, rate_limit or downsample"));
  EXPECT_THAT(errorsOf("mode: probabilistic\npercentage: 120\n"), HasSubstr("t.yaml:2:1"));
  EXPECT_THAT(errorsOf("percentage: 120\n"), HasSubstr("percentage must be within 0..100"));
  EXPECT_THAT(errorsOf("mode: rate_limit\nlimit: 0\n"), HasSubstr("limit must be > 0"));
  EXPECT_THAT(errorsOf("on_limit: wait\n"), HasSubstr("on_limit must be refuse or drop"));
  EXPECT_THAT(errorsOf("unit: bytes\n"), HasSubstr("unit must be profiles or samples"));
  EXPECT_THAT(errorsOf("probability: 0\n"), HasSubstr("probability must be within (0, 1]"));
  EXPECT_THAT(errorsOf("keep_unique_by: [service.name]\nunique_interval: 0\n"), HasSubstr("unique_interval must be > 0"));
  EXPECT_THAT(errorsOf("percent: 5\n"), HasSubstr("unknown key 'percent'"));
  EXPECT_THAT(errorsOf("percentage: lots\n"), HasSubstr("expected a number"));
}

}  // namespace
}  // namespace proflow::processors::sample
