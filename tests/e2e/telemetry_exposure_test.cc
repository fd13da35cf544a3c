// What the telemetry endpoint of the real daemon gives to whom: on a non-loopback address without an
// authenticator the status page's data and POST /-/reload are off (403 naming the fix, a warning in
// the log) while /metrics and /healthz answer; with an authenticator a client without credentials
// gets 401 on every path but /healthz, before any 404/405; on loopback everything answers as before;
// the shipped gateway config hands out no profile data and no reload without credentials; and the
// endpoint serves HTTPS when given `tls`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/net/http_client.h"
#include "tests/support/daemon.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tls_test_server.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;

// admin / secret, as `htpasswd -s` writes it, and the header a client sends for it.
constexpr const char* kHtpasswd = "admin:{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ=";
constexpr const char* kBasicAdmin = "Basic YWRtaW46c2VjcmV0";

testing::RawResponse ask(int port, const std::string& method, const std::string& target,
                         const testing::RawHeaders& headers = {}) {
  return testing::rawExchange(port, testing::requestHead(method, target, headers, 0), "", 20s);
}

std::string pipelineConfig(int http, const std::string& telemetry, const std::string& receiver_extra = "") {
  return "receivers: { otlp: { protocols: { http: { endpoint: 127.0.0.1:" + std::to_string(http) + receiver_extra +
         " } } } }\n" +
         "exporters: { debug: {} }\n" + "service:\n" + telemetry +
         "  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }\n";
}

const char* const kDataPaths[] = {"/api/flamegraph/series", "/api/status",
                                  "/api/flamegraph?service=a&type=cpu/nanoseconds&window=1m"};

TEST(TelemetryExposure, OnAllInterfacesWithoutAnAuthenticatorDataAndReloadAreOffAndSayWhy) {
  testing::TempDir dir;
  const int http = testing::freePort(), metrics = testing::freePort();
  const std::string config = dir.write(
      "proflow.yaml", pipelineConfig(http, "  telemetry: { metrics: { address: \"0.0.0.0:" + std::to_string(metrics) +
                                               "\" } }\n"));
  testing::Daemon d({"--config", config}, dir.file("d.log"));
  ASSERT_TRUE(d.waitHealthy(metrics)) << d.log();

  for (const char* path : kDataPaths) {
    auto r = ask(metrics, "GET", path);
    EXPECT_EQ(r.status, 403) << path << ": " << r.body;
    EXPECT_NE(r.body.find("service.telemetry.metrics.auth"), std::string::npos) << path << ": " << r.body;
    EXPECT_EQ(r.body.find("\"series\""), std::string::npos) << path;
  }
  auto reload = ask(metrics, "POST", "/-/reload");
  EXPECT_EQ(reload.status, 403) << reload.body;
  auto index = ask(metrics, "GET", "/");
  EXPECT_EQ(index.status, 200);
  EXPECT_NE(index.body.find("off"), std::string::npos) << index.body;
  EXPECT_EQ(index.body.find("<html"), std::string::npos) << "the status page itself is not served";
  EXPECT_EQ(ask(metrics, "GET", "/metrics").status, 200);
  EXPECT_EQ(ask(metrics, "GET", "/healthz").status, 200);
  EXPECT_NE(d.log().find("POST /-/reload are off"), std::string::npos) << d.log();
  EXPECT_NE(d.log().find("service.telemetry.metrics.auth"), std::string::npos) << d.log();
  EXPECT_EQ(d.terminate(), 0);
}

TEST(TelemetryExposure, WithAnAuthenticatorEveryPathButHealthIs401BeforeAny404Or405) {
  testing::TempDir dir;
  const int http = testing::freePort(), metrics = testing::freePort();
  const std::string config = dir.write(
      "proflow.yaml", std::string("extensions: { basicauth/telemetry: { htpasswd: { inline: \"") + kHtpasswd +
                          "\" } } }\n" +
                          pipelineConfig(http,
                                         "  extensions: [basicauth/telemetry]\n"
                                         "  telemetry: { metrics: { address: \"0.0.0.0:" +
                                             std::to_string(metrics) +
                                             "\", auth: { authenticator: basicauth/telemetry } } }\n",
                                         ", auth: { authenticator: basicauth/telemetry }"));
  testing::Daemon d({"--config", config}, dir.file("d.log"));
  ASSERT_TRUE(d.waitHealthy(metrics)) << d.log();

  // Without credentials: 401 whether the path and method exist or not.
  for (const char* path : kDataPaths) EXPECT_EQ(ask(metrics, "GET", path).status, 401) << path;
  const std::pair<const char*, const char*> requests[] = {
      {"POST", "/-/reload"}, {"GET", "/metrics"},   {"GET", "/"},
      {"GET", "/no-such-path"}, {"DELETE", "/metrics"}, {"GET", "/-/reload"}};
  for (const auto& [method, path] : requests) {
    auto r = ask(metrics, method, path);
    EXPECT_EQ(r.status, 401) << method << " " << path;
    EXPECT_NE(r.headers.find("WWW-Authenticate: Basic"), std::string::npos) << r.headers;
    EXPECT_EQ(r.headers.find("Allow:"), std::string::npos) << "no method list before credentials";
  }
  EXPECT_EQ(ask(metrics, "GET", "/healthz").status, 200);
  // A receiver behind the same authenticator: the same order, through the shared listener.
  for (const auto& [method, path] : {std::pair{"GET", "/v1development/profiles"}, std::pair{"GET", "/nope"},
                                     std::pair{"POST", "/v1development/profiles"}})
    EXPECT_EQ(ask(http, method, path).status, 401) << method << " " << path;
  EXPECT_EQ(ask(http, "GET", "/nope", {{"Authorization", kBasicAdmin}}).status, 404);

  // With them: the data, the routing answers and reload.
  const testing::RawHeaders auth = {{"Authorization", kBasicAdmin}};
  auto series = ask(metrics, "GET", "/api/flamegraph/series", auth);
  EXPECT_EQ(series.status, 200) << series.body;
  EXPECT_NE(series.body.find("\"series\""), std::string::npos);
  EXPECT_EQ(ask(metrics, "GET", "/no-such-path", auth).status, 404);
  EXPECT_EQ(ask(metrics, "DELETE", "/metrics", auth).status, 405);
  EXPECT_EQ(ask(metrics, "POST", "/-/reload", auth).status, 200);
  EXPECT_EQ(d.terminate(), 0);
}

TEST(TelemetryExposure, OnLoopbackTheStatusPageAndReloadAnswerWithoutCredentials) {
  testing::TempDir dir;
  const int http = testing::freePort(), metrics = testing::freePort();
  const std::string config = dir.write(
      "proflow.yaml", pipelineConfig(http, "  telemetry: { metrics: { address: \"127.0.0.1:" +
                                               std::to_string(metrics) + "\" } }\n"));
  testing::Daemon d({"--config", config}, dir.file("d.log"));
  ASSERT_TRUE(d.waitHealthy(metrics)) << d.log();
  EXPECT_EQ(ask(metrics, "GET", "/api/flamegraph/series").status, 200);
  EXPECT_EQ(ask(metrics, "GET", "/api/status").status, 200);
  EXPECT_EQ(ask(metrics, "POST", "/-/reload").status, 200);
  EXPECT_EQ(d.log().find("are off"), std::string::npos) << d.log();
  EXPECT_EQ(d.terminate(), 0);
}

// config/gateway.yaml as shipped, with only its addresses and the password file moved by the
// environment variables it documents.
TEST(TelemetryExposure, TheShippedGatewayConfigHandsOutNoProfilesAndNoReloadWithoutCredentials) {
  testing::TempDir dir;
  const int grpc = testing::freePort(), http = testing::freePort(), metrics = testing::freePort();
  const std::string htpasswd = dir.write("telemetry.htpasswd", std::string(kHtpasswd) + "\n");
  std::filesystem::create_directories(dir.file("debuginfod"));
  testing::Daemon d({"--config", std::string(PROFLOW_SOURCE_DIR) + "/config/gateway.yaml"}, dir.file("d.log"),
                    {{"PROFLOW_GRPC_ENDPOINT", "127.0.0.1:" + std::to_string(grpc)},
                     {"PROFLOW_HTTP_ENDPOINT", "127.0.0.1:" + std::to_string(http)},
                     {"PROFLOW_METRICS_ADDRESS", "0.0.0.0:" + std::to_string(metrics)},
                     {"PROFLOW_TELEMETRY_HTPASSWD", htpasswd},
                     {"PROFLOW_DEBUGINFOD_CACHE", dir.file("debuginfod")}});
  ASSERT_TRUE(d.waitHealthy(metrics)) << d.log();
  for (const char* path : kDataPaths) EXPECT_EQ(ask(metrics, "GET", path).status, 401) << path;
  EXPECT_EQ(ask(metrics, "POST", "/-/reload").status, 401);
  EXPECT_EQ(ask(metrics, "GET", "/api/flamegraph/series", {{"Authorization", kBasicAdmin}}).status, 200);
  d.terminate();
}

TEST(TelemetryExposure, TheEndpointServesHttpsWithItsTlsBlock) {
  testing::TempDir dir;
  const std::string cert = dir.file("cert.pem"), key = dir.file("key.pem");
  ASSERT_TRUE(testing::makeSelfSignedCert(cert, key));
  const int http = testing::freePort(), metrics = testing::freePort();
  const std::string config = dir.write(
      "proflow.yaml", pipelineConfig(http, "  telemetry: { metrics: { address: \"127.0.0.1:" +
                                               std::to_string(metrics) + "\", tls: { cert_file: " + cert +
                                               ", key_file: " + key + " } } }\n"));
  testing::Daemon d({"--config", config}, dir.file("d.log"));
  net::HttpClientOptions o;
  o.tls.ca_file = cert;
  net::HttpClient client(o);
  const std::string base = "https://localhost:" + std::to_string(metrics);
  net::HttpResult health;
  ASSERT_TRUE(testing::waitFor([&] {
    health = client.request("GET", base + "/healthz", {}, "", 5s);
    return health.http_status == 200;
  }, 20s)) << health.status.toString() << "\n" << d.log();
  auto page = client.request("GET", base + "/metrics", {}, "", 5s);
  EXPECT_EQ(page.http_status, 200);
  EXPECT_NE(page.body.find("proflow_"), std::string::npos);
  EXPECT_EQ(ask(metrics, "GET", "/metrics").status, 0) << "plain text gets no answer from a TLS port";
  EXPECT_EQ(d.terminate(), 0);
}

TEST(TelemetryExposure, AMissingTlsFileFailsValidationWithItsLine) {
  testing::TempDir dir;
  const std::string config = dir.write(
      "proflow.yaml", pipelineConfig(testing::freePort(),
                                     "  telemetry: { metrics: { address: \"127.0.0.1:0\", tls: { cert_file: " +
                                         dir.file("nope.pem") + " } } }\n"));
  std::string out;
  EXPECT_NE(testing::runCommand({testing::proflowBinary(), "validate", "--config", config}, &out), 0);
  EXPECT_NE(out.find("service.telemetry.metrics.tls.key_file"), std::string::npos) << out;
  EXPECT_NE(out.find("proflow.yaml:"), std::string::npos) << out;
}

}  // namespace
}  // namespace proflow
