// The zpages extension in a running service: each page over HTTP names what runs (pipelines with
// their components and connectors, extensions, version), and a reload shows the new graph.
#include <gtest/gtest.h>

#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/raw_http.h"

namespace proflow {
namespace {

testing::RawResponse get(int port, const std::string& path) {
  return testing::rawExchange(port, testing::requestHead("GET", path, {}, 0), "");
}

std::string yaml(int port, const std::string& pipelines) {
  return R"(
extensions:
  zpages: { endpoint: "127.0.0.1:)" + std::to_string(port) + R"(" }
  health_check: { endpoint: "127.0.0.1:0" }
receivers:
  otlp: { protocols: { http: { endpoint: "127.0.0.1:0" } } }
processors: { batch: {} }
exporters: { debug: {}, debug/second: {} }
connectors: { forward: {} }
service:
  extensions: [zpages, health_check]
  shutdown_timeout: 1s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
)" + pipelines;
}

TEST(ZPages, PagesNameWhatRunsAndFollowAReload) {
  const int port = testing::freePort();
  auto service = testing::startService(yaml(port, R"(
    profiles/in: { receivers: [otlp], processors: [batch], exporters: [forward] }
    profiles/out: { receivers: [forward], exporters: [debug, debug/second] }
)"));
  ASSERT_TRUE(service);

  auto r = get(port, "/debug/pipelinez");
  ASSERT_EQ(r.status, 200);
  EXPECT_NE(r.headers.find("text/html"), std::string::npos);
  EXPECT_NE(r.body.find("<tr><td>profiles/in</td><td>otlp</td><td>batch</td><td>forward</td></tr>"), std::string::npos)
      << r.body;
  EXPECT_NE(r.body.find("<tr><td>profiles/out</td><td>forward</td><td>&ndash;</td><td>debug<br>debug/second</td></tr>"),
            std::string::npos)
      << r.body;

  r = get(port, "/debug/extensionz");
  ASSERT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("<td>zpages</td>"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("<td>health_check</td>"), std::string::npos) << r.body;

  r = get(port, "/debug/servicez");
  ASSERT_EQ(r.status, 200);
  EXPECT_NE(r.body.find(PROFLOW_VERSION), std::string::npos);
  EXPECT_NE(r.body.find("every pipeline runs"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("StartTimestamp"), std::string::npos) << r.body;
  for (const char* path : {"/debug/featurez", "/debug/tracez"}) EXPECT_EQ(get(port, path).status, 200) << path;

  Registry registry;
  ASSERT_TRUE(registerBuiltins(registry).isOk());
  config::ServiceConfig next;
  std::string errors;
  ASSERT_TRUE(config::loadServiceConfigText(yaml(port, R"(
    profiles: { receivers: [otlp], exporters: [debug/second] }
)"), "next.yaml", registry, &next, &errors).isOk()) << errors;
  const auto outcome = service->apply(std::move(next), "test");
  ASSERT_TRUE(outcome.applied) << outcome.message;
  r = get(port, "/debug/pipelinez");
  EXPECT_NE(r.body.find("<tr><td>profiles</td><td>otlp</td><td>&ndash;</td><td>debug/second</td></tr>"),
            std::string::npos)
      << r.body;
  EXPECT_EQ(r.body.find("profiles/in"), std::string::npos) << r.body;
  service->shutdown();
}

}  // namespace
}  // namespace proflow
