// service.telemetry in the Collector's current shape: a pull Prometheus reader is the endpoint's
// address (the Helm chart's config), metrics.level none turns it off, the console encoding and the
// zap levels above error load, output_paths writes files; what has no counterpart is named.
#include <gtest/gtest.h>

#include <spdlog/spdlog.h>

#include <fstream>
#include <sstream>

#include "core/telemetry/logging.h"
#include "tests/receivers/otlp/service_harness.h"

namespace proflow {
namespace {

std::string withTelemetry(const std::string& telemetry) {
  return R"(
receivers: { otlp: { protocols: { grpc: {} } } }
exporters: { debug: {} }
service:
  telemetry:
)" + telemetry + R"(
  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }
)";
}

config::ServiceConfig load(const std::string& yaml, std::string* errors) {
  Registry registry;
  EXPECT_TRUE(registerBuiltins(registry).isOk());
  config::ServiceConfig cfg;
  (void)config::loadServiceConfigText(yaml, "t.yaml", registry, &cfg, errors);
  return cfg;
}

TEST(TelemetryConfig, ThePrometheusPullReaderIsTheEndpointsAddress) {
  std::string errors;
  // As the Collector's Helm chart writes it.
  auto cfg = load(withTelemetry(R"(    metrics:
      level: detailed
      readers:
        - pull:
            exporter:
              prometheus:
                host: 0.0.0.0
                port: 9464
    logs: { level: debug, encoding: console })"),
                  &errors);
  ASSERT_EQ(errors, "");
  EXPECT_EQ(cfg.telemetry.metrics.address, "0.0.0.0:9464");
  EXPECT_EQ(cfg.telemetry.logs.encoding, "text");
  EXPECT_EQ(cfg.telemetry.logs.level, "debug");

  cfg = load(withTelemetry("    metrics: { readers: [ { pull: { exporter: { prometheus: { host: \"::1\", port: 0 } } } } ] }"),
             &errors);
  ASSERT_EQ(errors, "");
  EXPECT_EQ(cfg.telemetry.metrics.address, "[::1]:0");

  cfg = load(withTelemetry("    metrics: { level: none }\n    logs: { level: fatal }"), &errors);
  ASSERT_EQ(errors, "");
  EXPECT_EQ(cfg.telemetry.metrics.address, "none");
  EXPECT_EQ(cfg.telemetry.logs.level, "error");
}

TEST(TelemetryConfig, WhatHasNoCounterpartIsNamedWithItsLine) {
  std::string errors;
  load(withTelemetry(R"(    metrics:
      address: 127.0.0.1:8888
      level: verbose
      readers:
        - periodic: { exporter: { otlp: { protocol: grpc, endpoint: "http://collector:4317" } } }
        - pull: { exporter: { prometheus: { host: localhost, port: 8889 } } }
    logs:
      sampling: { enabled: true }
      encoding: logfmt)"),
       &errors);
  EXPECT_NE(errors.find("service.telemetry.metrics.level: unknown level 'verbose'"), std::string::npos) << errors;
  EXPECT_NE(errors.find("readers[0].periodic: not supported"), std::string::npos) << errors;
  EXPECT_NE(errors.find("service.telemetry.metrics.address: set address or readers, not both"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("service.telemetry.logs.sampling: not supported"), std::string::npos) << errors;
  EXPECT_NE(errors.find("unknown log encoding 'logfmt'"), std::string::npos) << errors;
  EXPECT_NE(errors.find("t.yaml:"), std::string::npos) << errors;
}

TEST(TelemetryConfig, OutputPathsWriteLogLinesToFiles) {
  const std::string path = ::testing::TempDir() + "/proflow-log-test.log";
  std::remove(path.c_str());
  ASSERT_TRUE(telemetry::setupLogging("info", "json", {path}).isOk());
  spdlog::info("a line for the file");
  spdlog::default_logger()->flush();
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("\"msg\":\"a line for the file\""), std::string::npos) << text.str();
  const Status bad = telemetry::setupLogging("info", "text", {"/dev/null/x.log"});
  EXPECT_FALSE(bad.isOk());
  EXPECT_NE(bad.message().find("/dev/null/x.log"), std::string::npos) << bad.message();
  ASSERT_TRUE(telemetry::setupLogging("info", "text").isOk());
}

}  // namespace
}  // namespace proflow
