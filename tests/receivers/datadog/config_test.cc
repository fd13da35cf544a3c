// The receiver's YAML: defaults (the Agent's port), every key, and every error listed at once.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "receivers/datadog/config.h"
#include "receivers/datadog/factory.h"
#include "tests/support/component_config.h"

namespace proflow::receivers::datadog {
namespace {

using ::testing::HasSubstr;

config::ConfigErrors validateYaml(const std::string& yaml, DatadogReceiverConfig* out = nullptr) {
  return ::proflow::testing::checkComponentConfig(*makeDatadogReceiverFactory(), yaml, "receivers.datadog", out,
                                                  "test.yaml");
}

TEST(DatadogReceiverConfigTest, DefaultsListenOnTheAgentsPort) {
  DatadogReceiverConfig c;
  EXPECT_EQ(validateYaml("", &c).size(), 0u);
  EXPECT_EQ(c.endpoint, "127.0.0.1:8126");
  EXPECT_EQ(c.forward_to, "");
  EXPECT_EQ(validateYaml("endpoint: 0.0.0.0:8126\nforward_to: http://datadog-agent:8126\nforward_timeout: 3s\n"
                         "max_concurrent_forwards: 8\nforward_workers: 2\nmax_forward_response_size: 1MiB\n"
                         "max_profile_size: 16MiB\nmax_in_flight_bytes: 128MiB\n",
                         &c)
                .size(),
            0u);
  EXPECT_EQ(c.forward_to, "http://datadog-agent:8126");
  EXPECT_EQ(c.forward_timeout.ms().count(), 3000);
  EXPECT_EQ(c.forward_workers, 2);
  EXPECT_EQ(c.max_forward_response_size.bytes, 1u << 20);
  EXPECT_EQ(c.server_limits.max_in_flight_bytes.bytes, 128u << 20);
}

TEST(DatadogReceiverConfigTest, ReportsEveryProblem) {
  auto errors = validateYaml(
      "endpoint: 'no port'\nforward_to: http://agent:8126/profiling/v1/input\nforward_timeout: 0s\n"
      "max_concurrent_forwards: 0\nforward_workers: 0\nmax_inflate_ratio: 0.5\nforward_too: x\n");
  const std::string text = errors.format();
  EXPECT_THAT(text, HasSubstr("endpoint"));
  EXPECT_THAT(text, HasSubstr("base URL without a path"));
  EXPECT_THAT(text, HasSubstr("forward_timeout"));
  EXPECT_THAT(text, HasSubstr("max_concurrent_forwards"));
  EXPECT_THAT(text, HasSubstr("forward_workers"));
  EXPECT_THAT(text, HasSubstr("max_inflate_ratio"));
  EXPECT_THAT(text, HasSubstr("unknown key 'forward_too'"));
  EXPECT_THAT(text, HasSubstr("test.yaml:"));  // file:line
  EXPECT_EQ(errors.size(), 7u) << text;
  EXPECT_THAT(validateYaml("forward_to: ftp://agent\n").format(), HasSubstr("http:// or https://"));
}

}  // namespace
}  // namespace proflow::receivers::datadog
