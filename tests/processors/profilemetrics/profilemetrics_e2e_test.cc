// The profilemetrics processor in the real daemon (every port 0): a Go CPU profile with span labels
// sent over OTLP/HTTP, then /metrics scraped as Prometheus does (OpenMetrics, checked by a strict
// reader and by prometheus_client's parser) and as plain Prometheus text (promtool).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <sstream>

#include "core/flat/flat_encode.h"
#include "tests/core/telemetry/openmetrics_check.h"
#include "tests/processors/profilemetrics/go_cpu_fixture.h"
#include "tests/support/daemon.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"

namespace proflow::processors::profilemetrics::testing {
namespace {

using namespace std::chrono_literals;
using ::proflow::testing::Daemon;
using ::proflow::testing::waitFor;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kPrometheusAccept =
    "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
    "text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

constexpr const char* kConfig = R"(receivers:
  otlp: { protocols: { http: { endpoint: 127.0.0.1:0 } } }
processors:
  profilemetrics: { top_n: 3, window: 1s }
exporters:
  debug: {}
service:
  telemetry: { metrics: { address: 127.0.0.1:0 } }
  pipelines:
    profiles: { receivers: [otlp], processors: [profilemetrics], exporters: [debug] }
)";

// The port a log line "<marker>... (port N)" announced; 0 before it is there.
int announcedPort(const std::string& log, const std::string& marker) {
  std::smatch m;
  if (!std::regex_search(log, m, std::regex(marker + "[^\n]*\\(port ([0-9]+)\\)"))) return 0;
  return std::stoi(m[1]);
}

proflow::testing::RawResponse scrape(int port, const std::string& accept) {
  proflow::testing::RawHeaders headers;
  if (!accept.empty()) headers.emplace_back("Accept", accept);
  return proflow::testing::rawExchange(port, proflow::testing::requestHead("GET", "/metrics", headers, 0), "");
}

// Series of `family` for service "checkout": function label (or "") -> value.
std::map<std::string, double> seriesOf(const std::string& text, const std::string& family) {
  std::map<std::string, double> out;
  const std::regex line("^" + family +
                        R"re(\{processor="profilemetrics",pipeline="profiles",service_name="checkout"(?:,function="([^"]*)")?\} ([^ \n]+))re");
  std::stringstream in(text);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (std::regex_search(l, m, line)) out[m[1]] = std::stod(m[2]);
  }
  return out;
}

TEST(ProfileMetricsE2e, PrometheusScrapesTotalsTopFunctionsAndExemplarsFromTheDaemon) {
  proflow::testing::TempDir dir;
  Daemon daemon({"--config", dir.write("proflow.yaml", kConfig)}, dir.file("proflow.log"));
  int metrics = 0, otlp = 0;
  ASSERT_TRUE(waitFor([&] {
    const std::string log = daemon.log();
    metrics = announcedPort(log, "telemetry: ");
    otlp = announcedPort(log, "OTLP/HTTP listening on ");
    return metrics != 0 && otlp != 0;
  }, 20s)) << daemon.log();
  ASSERT_TRUE(daemon.waitHealthy(metrics)) << daemon.log();

  const std::string body = flat::encode(goCpuBatch("checkout"));
  auto sent = proflow::testing::rawPost(otlp, "/v1development/profiles", {{"Content-Type", "application/x-protobuf"}}, body);
  ASSERT_EQ(sent.status, 200) << sent.body;

  // Top N comes at the end of the first window (1s).
  proflow::testing::RawResponse om;
  ASSERT_TRUE(waitFor([&] {
    om = scrape(metrics, kPrometheusAccept);
    return om.body.find("proflow_profile_function_self_cpu_seconds_total{") != std::string::npos;
  }, 20s)) << om.body;
  EXPECT_THAT(om.headers, HasSubstr("Content-Type: application/openmetrics-text; version=1.0.0"));
  auto check = proflow::testing::checkOpenMetrics(om.body);
  EXPECT_TRUE(check.errors.empty()) << ::testing::PrintToString(check.errors) << om.body;
  EXPECT_THAT(om.body, HasSubstr("# TYPE proflow_profile_cpu_seconds counter\n# UNIT proflow_profile_cpu_seconds seconds\n"));
  // The daemon's own metrics are there too, as OpenMetrics counters.
  EXPECT_THAT(om.body, HasSubstr("# TYPE proflow_receiver_accepted_profiles counter\n"));
  EXPECT_THAT(om.body, HasSubstr("proflow_receiver_accepted_profiles_total{receiver=\"otlp\"} 2\n"));

  const auto expected = expectedGoCpu();
  const Expected& cpu = expected[1].type == "cpu" ? expected[1] : expected[0];
  ASSERT_EQ(cpu.type, "cpu");
  auto totals = seriesOf(om.body, "proflow_profile_cpu_seconds_total");
  ASSERT_EQ(totals.size(), 1u) << om.body;
  EXPECT_DOUBLE_EQ(totals[""], static_cast<double>(cpu.total) / 1e9);
  auto self = seriesOf(om.body, "proflow_profile_function_self_cpu_seconds_total");
  const auto top = topN(cpu.self, 3);
  ASSERT_EQ(self.size(), top.size()) << om.body;
  for (const auto& [name, v] : top) EXPECT_DOUBLE_EQ(self[name], static_cast<double>(v) / 1e9) << name;
  EXPECT_EQ(seriesOf(om.body, "proflow_profile_function_inclusive_cpu_seconds_total").size(), 3u);

  // prometheus_client reads it, exemplars included, and their ids are the profile's links.
  std::string parsed;
  ASSERT_EQ(proflow::testing::parseWithPrometheusClient(om.body, &parsed), 0) << parsed << om.body;
  std::regex exemplar_line(R"(^proflow_profile_cpu_seconds_total ([0-9a-f]{32}) ([0-9a-f]{16}) (\S+)$)");
  std::smatch m;
  bool found = false;
  std::stringstream in(parsed);
  for (std::string l; std::getline(in, l);) {
    if (!std::regex_match(l, m, exemplar_line)) continue;
    found = true;
    int64_t heaviest = 0;
    for (const auto& s : cpu.linked) heaviest = std::max(heaviest, s.value);
    EXPECT_DOUBLE_EQ(std::stod(m[3]), static_cast<double>(heaviest) / 1e9);
    EXPECT_TRUE(std::any_of(cpu.linked.begin(), cpu.linked.end(), [&](const LinkedSample& s) {
      return s.trace_id == m[1] && s.span_id == m[2] && s.value == heaviest;
    })) << l;
  }
  EXPECT_TRUE(found) << parsed;

  // Without an OpenMetrics Accept: Prometheus text, no exemplars, no # EOF; promtool accepts it.
  auto text = scrape(metrics, "");
  EXPECT_THAT(text.headers, HasSubstr("Content-Type: text/plain; version=0.0.4"));
  EXPECT_THAT(text.body, HasSubstr("# TYPE proflow_profile_cpu_seconds_total counter\n"));
  EXPECT_THAT(text.body, Not(HasSubstr(" # {")));
  EXPECT_THAT(text.body, Not(HasSubstr("# EOF")));
  EXPECT_DOUBLE_EQ(seriesOf(text.body, "proflow_profile_cpu_seconds_total")[""], static_cast<double>(cpu.total) / 1e9);
  std::string promtool;
  EXPECT_EQ(proflow::testing::promtoolCheckMetrics(text.body, &promtool), 0) << promtool;

  EXPECT_EQ(daemon.terminate(), 0) << daemon.log();
}

}  // namespace
}  // namespace proflow::processors::profilemetrics::testing
