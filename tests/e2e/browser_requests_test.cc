// What a web page can make a browser send to the default sidecar (everything on loopback): a
// cross-site form POST to /-/reload or to a receiver is refused, and so is every request carrying a
// rebound DNS name as Host (the status API, flame graphs, /metrics, ingest); curl-like clients and
// same-origin pages are served as before.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/daemon.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;

// One request with exactly the head given (Host included), no body.
testing::RawResponse send(int port, const std::string& method, const std::string& target, const std::string& host,
                          const testing::RawHeaders& headers = {}) {
  std::string head = method + " " + target + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n";
  for (const auto& [k, v] : headers) head += k + ": " + v + "\r\n";
  head += "Content-Length: 0\r\n\r\n";
  return testing::rawExchange(port, head, "", 20s);
}

double metric(int port, const std::string& series) {
  std::string body;
  if (testing::httpGet(port, "/metrics", &body) != 200) return -1;
  auto at = body.find("\n" + series + " ");
  return at == std::string::npos ? -1 : std::stod(body.substr(at + series.size() + 2));
}

class BrowserRequests : public ::testing::Test {
 protected:
  void SetUp() override {
    http_ = testing::freePort();
    metrics_ = testing::freePort();
    const std::string config = dir_.write(
        "proflow.yaml", "receivers: { otlp: { protocols: { http: { endpoint: 127.0.0.1:" + std::to_string(http_) +
                            " } } } }\nexporters: { debug: {} }\nservice:\n  telemetry: { metrics: { address: "
                            "127.0.0.1:" + std::to_string(metrics_) +
                            " } }\n  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }\n");
    daemon_ = std::make_unique<testing::Daemon>(std::vector<std::string>{"--config", config}, dir_.file("d.log"));
    ASSERT_TRUE(daemon_->waitHealthy(metrics_)) << daemon_->log();
  }
  void TearDown() override { EXPECT_EQ(daemon_->terminate(), 0); }

  std::string local() const { return "127.0.0.1:" + std::to_string(metrics_); }

  testing::TempDir dir_;
  int http_ = 0, metrics_ = 0;
  std::unique_ptr<testing::Daemon> daemon_;
};

TEST_F(BrowserRequests, ACrossSiteFormPostDoesNotReloadTheDaemon) {
  const std::string reloads = "proflow_config_reloads_total";
  const testing::RawHeaders forged[] = {
      {{"Origin", "http://attacker.example"}, {"Content-Type", "application/x-www-form-urlencoded"}},
      {{"Sec-Fetch-Site", "cross-site"}, {"Origin", "http://attacker.example"}},
      {{"Origin", "null"}}};
  for (const auto& headers : forged) {
    auto r = send(metrics_, "POST", "/-/reload", local(), headers);
    EXPECT_EQ(r.status, 403) << r.body;
  }
  EXPECT_EQ(metric(metrics_, reloads), 0) << "no reload ran";
  EXPECT_EQ(metric(metrics_,
                   "proflow_receiver_http_rejected_requests_total{receiver=\"service.telemetry\",reason=\"forbidden\"}"),
            3);
  // The same POST from the page's own origin, or from curl, reloads.
  EXPECT_EQ(send(metrics_, "POST", "/-/reload", local(), {{"Origin", "http://" + local()}}).status, 200);
  EXPECT_EQ(send(metrics_, "POST", "/-/reload", local(), {{"Sec-Fetch-Site", "same-origin"}}).status, 200);
  EXPECT_EQ(send(metrics_, "POST", "/-/reload", local()).status, 200);
  EXPECT_EQ(metric(metrics_, reloads), 3);
}

TEST_F(BrowserRequests, AReboundHostNameGetsNoDataFromTheTelemetryEndpointOrTheReceivers) {
  const std::string rebound = "attacker.example:" + std::to_string(metrics_);
  for (const char* path : {"/api/flamegraph/series", "/api/status", "/metrics", "/",
                           "/api/flamegraph?service=a&type=cpu/nanoseconds"}) {
    auto r = send(metrics_, "GET", path, rebound);
    EXPECT_EQ(r.status, 403) << path;
    EXPECT_EQ(r.body.find("proflow_"), std::string::npos) << path;
    EXPECT_EQ(send(metrics_, "GET", path, "localhost:" + std::to_string(metrics_)).status == 403, false) << path;
  }
  EXPECT_EQ(send(metrics_, "GET", "/api/flamegraph/series", "[::1]:" + std::to_string(metrics_)).status, 200);
  // A loopback receiver: a rebound name and a cross-site form are refused before the body.
  EXPECT_EQ(send(http_, "POST", "/v1development/profiles", "attacker.example:" + std::to_string(http_)).status, 403);
  EXPECT_EQ(send(http_, "POST", "/v1development/profiles", "127.0.0.1:" + std::to_string(http_),
                 {{"Sec-Fetch-Site", "cross-site"}, {"Content-Type", "text/plain"}})
                .status,
            403);
  EXPECT_NE(send(http_, "POST", "/v1development/profiles", "127.0.0.1:" + std::to_string(http_),
                 {{"Content-Type", "application/x-protobuf"}})
                .status,
            403)
      << "an SDK's request is not screened out";
}

}  // namespace
}  // namespace proflow
