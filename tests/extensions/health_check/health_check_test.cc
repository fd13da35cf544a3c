// The health_check extension in a running service, probed over HTTP as Kubernetes does: the
// Collector's JSON while the pipelines run, 503 once a component failed, fixed bodies, a custom
// path, and its config errors with file:line.
#include <gtest/gtest.h>

#include <regex>

#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/raw_http.h"

namespace proflow {
namespace {

testing::RawResponse probe(int port, const std::string& path) {
  return testing::rawExchange(port, testing::requestHead("GET", path, {{"User-Agent", "kube-probe/1.31"}}, 0), "");
}

std::string serviceYaml(int port, const std::string& extra) {
  return R"(
extensions:
  health_check:
    endpoint: 127.0.0.1:)" + std::to_string(port) + "\n" + extra + R"(
receivers:
  otlp: { protocols: { http: { endpoint: "127.0.0.1:0" } } }
exporters: { debug: {} }
service:
  extensions: [health_check]
  shutdown_timeout: 1s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles: { receivers: [otlp], exporters: [debug] }
)";
}

TEST(HealthCheck, AnswersTheCollectorsJsonWhileThePipelinesRunAnd503OnceAComponentFailed) {
  const int port = testing::freePort();
  auto service = testing::startService(serviceYaml(port, ""));
  ASSERT_TRUE(service);
  auto r = probe(port, "/");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.headers.find("application/json"), std::string::npos) << r.headers;
  EXPECT_TRUE(std::regex_search(
      r.body, std::regex(R"(^\{"status":"Server available","upSince":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z","uptime":"[0-9.hmnsµ]+"\}$)")))
      << r.body;
  EXPECT_EQ(probe(port, "/other").status, 404);

  service->reportFatalError(ComponentId{"otlp", ""}, Status::unavailable("listener died"));
  r = probe(port, "/");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.body, R"({"status":"Server not available","upSince":"0001-01-01T00:00:00Z","uptime":""})");
  service->shutdown();
}

TEST(HealthCheck, FixedBodiesOnACustomPath) {
  const int port = testing::freePort();
  auto service = testing::startService(
      serviceYaml(port, "    path: /health/status\n    response_body: { healthy: \"I'm OK\", unhealthy: \"I'm not well\" }"));
  ASSERT_TRUE(service);
  auto r = probe(port, "/health/status");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "I'm OK");
  EXPECT_EQ(probe(port, "/").status, 404);
  service->reportFatalError(ComponentId{"otlp", ""}, Status::unavailable("listener died"));
  r = probe(port, "/health/status");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.body, "I'm not well");
  service->shutdown();
}

TEST(HealthCheck, ACollectorConfigWithItsDeprecatedPipelineCheckLoads) {
  // From the Collector's health_check README, without its tls block (placeholder files).
  EXPECT_EQ(testing::configErrors(R"(
extensions:
  health_check:
    endpoint: "localhost:13"
    path: "/health/status"
    check_collector_pipeline:
      enabled: true
      interval: "5m"
      exporter_failure_threshold: 5
receivers: { otlp: { protocols: { grpc: {} } } }
exporters: { debug: {} }
service:
  extensions: [health_check]
  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }
)"), "");
  const std::string errors = testing::configErrors(R"(
extensions:
  health_check: { endpoint: "nowhere", path: status }
receivers: { otlp: { protocols: { grpc: {} } } }
exporters: { debug: {} }
service:
  extensions: [health_check]
  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }
)", "h.yaml");
  EXPECT_NE(errors.find("h.yaml:3"), std::string::npos) << errors;
  EXPECT_NE(errors.find("extensions.health_check.endpoint"), std::string::npos) << errors;
  EXPECT_NE(errors.find("extensions.health_check.path: 'status' must start with '/'"), std::string::npos) << errors;
}

}  // namespace
}  // namespace proflow
