// Config validation of the filter processor: bad regexes and rules are reported at their location.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/processors/filter/filter_test_util.h"

namespace proflow::processors::filter {
namespace {

using ::testing::HasSubstr;

TEST(FilterConfig, ValidConfigsPass) {
  EXPECT_EQ(decode("", nullptr), "");
  EXPECT_EQ(decode("drop_profiles:\n  - {key: service.name, regex: 'test-.*', in: resource}\n"
                   "drop_samples:\n  - {key: thread.name, value: GC}\n"
                   "drop_frames: 'runtime\\..*'\nkeep_frames: runtime.main\n",
                   nullptr),
            "");
}

// Source: opentelemetry-collector-contrib processor/filterprocessor/README.md, the OTTL example
// with its trace, metric and log sections (only the profile part applies; the rest is accepted and
// ignored, as the transform processor does with its other signals' statements).
TEST(FilterConfig, CollectorSectionsForOtherSignalsAreAcceptedAndIgnored) {
  EXPECT_EQ(decode(R"(
error_mode: ignore
traces:
  span:
    - 'attributes["container.name"] == "app_container_1"'
    - 'resource.attributes["host.name"] == "localhost"'
    - 'name == "app_3"'
  spanevent:
    - 'attributes["grpc"] == true'
    - 'IsMatch(name, ".*grpc.*")'
metrics:
  metric:
    - 'name == "my.metric" and resource.attributes["my_label"] == "abc123"'
    - 'type == METRIC_DATA_TYPE_HISTOGRAM'
  datapoint:
    - 'metric.type == METRIC_DATA_TYPE_SUMMARY'
    - 'resource.attributes["service.name"] == "my_service_name"'
logs:
  log_record:
    - 'IsMatch(body, ".*password.*")'
    - 'severity_number < SEVERITY_NUMBER_WARN'
spans:
  include:
    match_type: strict
    services: [app_3]
profiles:
  profile:
    - 'attributes["container.name"] == "app_container_1"'
)",
                   nullptr),
            "");
}

TEST(FilterConfig, BadRegexNamesFieldAndLocation) {
  std::string e = decode("drop_profiles:\n  - key: service.name\n    regex: 'svc-(['\n", nullptr);
  EXPECT_THAT(e, HasSubstr("processors.filter.drop_profiles[0].regex"));
  EXPECT_THAT(e, HasSubstr("t.yaml:3:5"));
  EXPECT_THAT(e, HasSubstr("invalid regex 'svc-(['"));
  e = decode("drop_frames: 'a(b'\n", nullptr);
  EXPECT_THAT(e, HasSubstr("t.yaml:1:1"));
  EXPECT_THAT(e, HasSubstr("missing )"));
  EXPECT_THAT(decode("drop_frames: x\nkeep_frames: '*'\n", nullptr), HasSubstr("t.yaml:2:1"));
}

TEST(FilterConfig, RuleErrors) {
  EXPECT_THAT(decode("drop_samples:\n  - value: x\n", nullptr), HasSubstr("key is required"));
  EXPECT_THAT(decode("drop_samples:\n  - {key: k, value: x, regex: y}\n", nullptr), HasSubstr("not both"));
  EXPECT_THAT(decode("drop_profiles:\n  - {key: k, in: host}\n", nullptr),
              HasSubstr("in must be resource, scope, profile or any"));
  EXPECT_THAT(decode("drop_samples:\n  - {key: k, in: scope}\n", nullptr), HasSubstr("drop_profiles only"));
  EXPECT_THAT(decode("keep_frames: x\n", nullptr), HasSubstr("only has an effect together with drop_frames"));
  EXPECT_THAT(decode("drop_frame: x\n", nullptr), HasSubstr("unknown key 'drop_frame'"));
}

}  // namespace
}  // namespace proflow::processors::filter
