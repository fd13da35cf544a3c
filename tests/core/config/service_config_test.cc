#include <gtest/gtest.h>

#include "core/config/service_config.h"
#include "tests/support/fake_components.h"

namespace proflow {
namespace {

class ServiceConfigTest : public ::testing::Test {
 protected:
  void SetUp() override { testing::registerFakes(registry_); }

  // Returns the formatted errors ("" when valid).
  std::string load(const std::string& yaml, config::ServiceConfig* out = nullptr) {
    config::ServiceConfig cfg;
    std::string errors;
    Status s = config::loadServiceConfigText(yaml, "cfg.yaml", registry_, out ? out : &cfg, &errors);
    EXPECT_EQ(s.isOk(), errors.empty());
    return errors;
  }

  Registry registry_;
};

TEST_F(ServiceConfigTest, AcceptsTheCollectorShape) {
  config::ServiceConfig cfg;
  std::string errors = load(R"(
receivers:
  fake: {}
  fake/second: { label: x }
processors:
  fake: { value: 3 }
exporters:
  fake: {}
  fake2/out: {}
service:
  pipelines:
    profiles:
      receivers: [fake, fake/second]
      processors: [fake]
      exporters: [fake]
    profiles/other:
      receivers: [fake]
      exporters: [fake, fake2/out]
  telemetry:
    metrics: { address: 127.0.0.1:0 }
    logs: { level: debug, encoding: json }
  shutdown_timeout: 3s
)",
                            &cfg);
  ASSERT_EQ(errors, "");
  ASSERT_EQ(cfg.pipelines.size(), 2u);
  EXPECT_EQ(cfg.pipelines[1].name, "profiles/other");
  EXPECT_EQ(cfg.pipelines[1].exporters[1].str(), "fake2/out");
  EXPECT_EQ(cfg.receivers.at(ComponentId{"fake", "second"}).config->as<testing::FakeConfig>().label, "x");
  EXPECT_EQ(cfg.processors.at(ComponentId{"fake", ""}).config->as<testing::FakeConfig>().value, 3);
  EXPECT_EQ(cfg.telemetry.logs.encoding, "json");
  EXPECT_EQ(cfg.shutdown_timeout.value, std::chrono::seconds(3));
}

TEST_F(ServiceConfigTest, ReportsEveryErrorAtOnceWithLocations) {
  std::string errors = load(R"(receivers:
  fake: { value: -1 }
  nosuch: {}
processors:
  fake: { colour: blue }
exporters:
  fake: { value: notanumber }
service:
  pipelines:
    profiles:
      receivers: [fake, missing]
      exporters: [fake]
    traces:
      receivers: [fake]
      exporters: [fake]
)");
  // value < 0 (validate), unknown receiver type, unknown key, bad integer, undefined id, traces pipeline.
  EXPECT_NE(errors.find("cfg.yaml:2:11: receivers.fake.value: must be >= 0"), std::string::npos) << errors;
  EXPECT_NE(errors.find("cfg.yaml:3:3: receivers.nosuch: unknown receiver type 'nosuch'; known types: fake, fake2"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("cfg.yaml:5:11: processors.fake.colour: unknown key 'colour'; valid keys: hold, label, lock, mutates, "
                        "status, value"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("cfg.yaml:7:18: exporters.fake.value: expected an integer"), std::string::npos) << errors;
  EXPECT_NE(errors.find("cfg.yaml:11:25: service.pipelines.profiles.receivers[1]: receiver 'missing' is not defined"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("cfg.yaml:13:5: service.pipelines.traces: pipeline 'traces': proflow carries profiles only"),
            std::string::npos)
      << errors;
  EXPECT_EQ(std::count(errors.begin(), errors.end(), '\n'), 6) << errors;
}

TEST_F(ServiceConfigTest, RequiresPipelinesWithReceiversAndExporters) {
  EXPECT_NE(load("receivers: {fake: {}}\nservice: {}\n").find("at least one pipeline is required"), std::string::npos);
  std::string errors = load(R"(
receivers: { fake: {} }
exporters: { fake: {} }
service:
  pipelines:
    profiles: { receivers: [fake] }
)");
  EXPECT_NE(errors.find("a pipeline needs at least one exporter"), std::string::npos) << errors;
}

TEST_F(ServiceConfigTest, RejectsUnknownKeysEverywhere) {
  std::string errors = load(R"(
recievers: {}
receivers: { fake: {} }
exporters: { fake: {} }
service:
  pipeline: {}
  pipelines:
    profiles: { receivers: [fake], exporters: [fake], procesors: [] }
  telemetry: { metrics: { adress: x } }
)");
  EXPECT_NE(errors.find("unknown top-level key 'recievers'"), std::string::npos) << errors;
  EXPECT_NE(errors.find("service.pipeline: unknown key 'pipeline'"), std::string::npos) << errors;
  EXPECT_NE(errors.find("unknown key 'procesors'; valid keys: exporters, processors, receivers"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("service.telemetry.metrics.adress: unknown key 'adress'; valid keys: address"),
            std::string::npos)
      << errors;
}

TEST_F(ServiceConfigTest, InvalidIdsAndDuplicatesInPipelines) {
  std::string errors = load(R"(
receivers: { "fake/": {} , fake: {} }
exporters: { fake: {} }
service:
  pipelines:
    profiles: { receivers: [fake, fake], exporters: [fake] }
)");
  EXPECT_NE(errors.find("invalid component id 'fake/'"), std::string::npos) << errors;
  EXPECT_NE(errors.find("'fake' is listed twice"), std::string::npos) << errors;
}

TEST_F(ServiceConfigTest, ExpandsEnvironmentInValues) {
  setenv("PROFLOW_TEST_LABEL", "from-env", 1);
  config::ServiceConfig cfg;
  std::string errors = load(R"(
receivers: { fake: { label: "${env:PROFLOW_TEST_LABEL}", value: "${env:PROFLOW_UNSET_NUMBER:-7}" } }
exporters: { fake: {} }
service: { pipelines: { profiles: { receivers: [fake], exporters: [fake] } } }
)",
                            &cfg);
  ASSERT_EQ(errors, "");
  const auto& rc = cfg.receivers.at(ComponentId{"fake", ""}).config->as<testing::FakeConfig>();
  EXPECT_EQ(rc.label, "from-env");
  EXPECT_EQ(rc.value, 7);
}

}  // namespace
}  // namespace proflow
