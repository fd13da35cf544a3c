// Config decoding and validation of the pyroscope exporter (and receiver defaults), from YAML.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/config/config_loader.h"
#include "exporters/pyroscope/config.h"
#include "exporters/pyroscope/factory.h"
#include "tests/support/component_config.h"

namespace proflow::exporters::pyroscope {
namespace {

using ::testing::HasSubstr;

config::ConfigErrors validateYaml(const std::string& yaml, PyroscopeExporterConfig* out = nullptr) {
  return ::proflow::testing::checkComponentConfig(*makePyroscopeExporterFactory(), yaml, "exporters.pyroscope", out, "test.yaml");
}

TEST(PyroscopeExporterConfigTest, FullExampleDecodes) {
  PyroscopeExporterConfig c;
  auto errors = validateYaml(R"(
endpoint: https://pyroscope.example:4040/prefix
api: ingest
tenant_id: team-a
auth: { basic: { username: u, password: p } }
external_labels: { cluster: eu }
headers: { X-Extra: "1" }
timeout: 10s
sending_queue: { queue_size: 10 }
retry_on_failure: { initial_interval: 1s }
)",
                             &c);
  EXPECT_EQ(errors.size(), 0u) << errors.format();
  EXPECT_EQ(c.api, "ingest");
  EXPECT_EQ(c.tenant_id, "team-a");
  ASSERT_TRUE(c.auth.basic.has_value());
  EXPECT_EQ(c.auth.basic->username, "u");
  EXPECT_EQ(c.external_labels.at("cluster"), "eu");
  EXPECT_EQ(c.helper.sending_queue.queue_size, 10);
}

TEST(PyroscopeExporterConfigTest, ReportsEveryProblem) {
  auto errors = validateYaml(R"(
endpoint: ftp://x
api: grpc
auth: { basic: { username: "" }, bearer_token: t }
external_labels: { "bad.name": x, __name__: y }
)");
  const std::string text = errors.format();
  EXPECT_THAT(text, HasSubstr("endpoint"));
  EXPECT_THAT(text, HasSubstr("unknown api 'grpc'; valid: push, ingest"));
  EXPECT_THAT(text, HasSubstr("set one of basic, bearer_token or authenticator"));
  EXPECT_THAT(text, HasSubstr("required with basic auth"));
  EXPECT_THAT(text, HasSubstr("'bad.name' is not a valid label name"));
  EXPECT_THAT(text, HasSubstr("reserved"));
  EXPECT_EQ(errors.size(), 6u) << text;
  EXPECT_THAT(validateYaml("api: push\n").format(), HasSubstr("endpoint is required"));
  EXPECT_THAT(validateYaml("endpoint: https://p:4040\ntls: { insecure: true }\n").format(),
              HasSubstr("the URL scheme decides"));
}

}  // namespace
}  // namespace proflow::exporters::pyroscope
