// The metrics registry in both exposition formats: Prometheus text 0.0.4 and OpenMetrics 1.0.0
// (families, _total, UNIT, HELP escapes, exemplars, # EOF), the Accept negotiation, collectors, and
// /metrics of the telemetry endpoint on a real socket. The OpenMetrics text is read by a strict
// checker written for the test and by prometheus_client's parser; the Prometheus text by promtool.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>

#include "core/telemetry/component_telemetry.h"
#include "core/telemetry/metrics.h"
#include "core/telemetry/telemetry_server.h"
#include "tests/core/telemetry/openmetrics_check.h"
#include "tests/support/raw_http.h"

namespace proflow::telemetry {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kPrometheusAccept =
    "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
    "text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

TEST(Exposition, NegotiatesWhatTheScraperAccepts) {
  EXPECT_EQ(negotiateExposition(kPrometheusAccept), ExpositionFormat::kOpenMetrics);
  EXPECT_EQ(negotiateExposition("application/openmetrics-text"), ExpositionFormat::kOpenMetrics);
  EXPECT_EQ(negotiateExposition("Application/OpenMetrics-Text; Version=1.0.0"), ExpositionFormat::kOpenMetrics);
  EXPECT_EQ(negotiateExposition(""), ExpositionFormat::kPrometheusText);
  EXPECT_EQ(negotiateExposition("*/*"), ExpositionFormat::kPrometheusText);
  EXPECT_EQ(negotiateExposition("text/plain;version=0.0.4"), ExpositionFormat::kPrometheusText);
  EXPECT_EQ(negotiateExposition("application/openmetrics-text;version=2.0.0"), ExpositionFormat::kPrometheusText);
  EXPECT_EQ(negotiateExposition("application/openmetrics-text;q=0"), ExpositionFormat::kPrometheusText);
  EXPECT_EQ(negotiateExposition("text/plain;q=0.9,application/openmetrics-text;q=0.5"),
            ExpositionFormat::kPrometheusText);
  EXPECT_EQ(negotiateExposition("text/plain;q=0.5,application/openmetrics-text;q=0.9"), ExpositionFormat::kOpenMetrics);
  EXPECT_THAT(expositionContentType(ExpositionFormat::kOpenMetrics),
              HasSubstr("application/openmetrics-text; version=1.0.0"));
  EXPECT_THAT(expositionContentType(ExpositionFormat::kPrometheusText), HasSubstr("text/plain; version=0.0.4"));
}

TEST(Exposition, CountersAndGaugesInBothFormats) {
  MetricsRegistry r;
  r.counter("proflow_things_total", "things \"seen\"\nback\\slash", {{"kind", "a\"b"}}).add(3);
  r.gauge("proflow_level", "current level").set(-2);
  r.callbackGauge("proflow_ratio", "a ratio", {}, [] { return 0.25; });
  r.callbackGauge("proflow_nothing", "no value", {}, [] { return std::nan(""); });

  const std::string text = r.render(ExpositionFormat::kPrometheusText);
  EXPECT_THAT(text, HasSubstr("# HELP proflow_things_total things \"seen\"\\nback\\\\slash\n"));
  EXPECT_THAT(text, HasSubstr("# TYPE proflow_things_total counter\nproflow_things_total{kind=\"a\\\"b\"} 3\n"));
  EXPECT_THAT(text, HasSubstr("proflow_level -2\n"));
  EXPECT_THAT(text, HasSubstr("proflow_ratio 0.25\n"));
  EXPECT_THAT(text, HasSubstr("proflow_nothing NaN\n"));
  EXPECT_THAT(text, Not(HasSubstr("# EOF")));
  EXPECT_EQ(text, r.renderPrometheus());

  const std::string om = r.render(ExpositionFormat::kOpenMetrics);
  EXPECT_THAT(om, HasSubstr("# TYPE proflow_things counter\n# HELP proflow_things things \\\"seen\\\"\\nback\\\\slash\n"
                            "proflow_things_total{kind=\"a\\\"b\"} 3\n"));
  EXPECT_THAT(om, HasSubstr("# TYPE proflow_level gauge\n"));
  EXPECT_TRUE(om.ends_with("\n# EOF\n"));
  auto check = testing::checkOpenMetrics(om);
  EXPECT_TRUE(check.errors.empty()) << ::testing::PrintToString(check.errors) << om;
  EXPECT_EQ(check.families, 4u);
}

MetricFamily withExemplar(const std::string& name, MetricType type) {
  MetricFamily f{name, type, "help", "seconds", {}};
  Exemplar e{{{"trace_id", std::string(32, 'a')}, {"span_id", std::string(16, 'b')}}, 0.5, 1700000000.25};
  f.samples.push_back({{{"service_name", "api"}}, 1.5, e});
  return f;
}

TEST(Exposition, ExemplarsOnlyInOpenMetricsAndOnlyOnCounters) {
  const std::vector<MetricFamily> fs = {withExemplar("proflow_cpu_seconds_total", MetricType::kCounter),
                                        withExemplar("proflow_used_seconds", MetricType::kGauge)};
  const std::string om = renderFamilies(fs, ExpositionFormat::kOpenMetrics);
  EXPECT_THAT(om, HasSubstr("# TYPE proflow_cpu_seconds counter\n# UNIT proflow_cpu_seconds seconds\n"));
  EXPECT_THAT(om, HasSubstr("proflow_cpu_seconds_total{service_name=\"api\"} 1.5 # {trace_id=\"" + std::string(32, 'a') +
                            "\",span_id=\"" + std::string(16, 'b') + "\"} 0.5 1700000000.250\n"));
  EXPECT_THAT(om, HasSubstr("proflow_used_seconds{service_name=\"api\"} 1.5\n"));  // gauges carry none
  auto check = testing::checkOpenMetrics(om);
  EXPECT_TRUE(check.errors.empty()) << ::testing::PrintToString(check.errors) << om;
  ASSERT_EQ(check.exemplars.size(), 1u);
  EXPECT_EQ(check.exemplars[0].value, 0.5);
  const std::string text = renderFamilies(fs, ExpositionFormat::kPrometheusText);
  EXPECT_THAT(text, Not(HasSubstr("trace_id")));
  EXPECT_THAT(text, Not(HasSubstr("UNIT")));
}

TEST(Exposition, TheRealParsersAcceptBothFormats) {
  MetricsRegistry r;
  ComponentTelemetry receiver(r, ComponentKind::kReceiver, "otlp");
  ComponentTelemetry processor(r, ComponentKind::kProcessor, "batch", {{"pipeline", "profiles"}});
  receiver.record(Event::kAccepted, {1, 2, 30});
  r.callbackGauge("proflow_process_resident_memory_bytes", "resident memory", {}, [] { return 1 << 20; });
  auto handle = r.addCollector("x", [](std::vector<MetricFamily>& out, bool) {
    out.push_back(withExemplar("proflow_profile_cpu_seconds_total", MetricType::kCounter));
  });
  std::string out;
  const std::string om = r.render(ExpositionFormat::kOpenMetrics);
  EXPECT_EQ(testing::parseWithPrometheusClient(om, &out), 0) << out << om;
  EXPECT_THAT(out, HasSubstr("proflow_profile_cpu_seconds_total " + std::string(32, 'a') + " " + std::string(16, 'b') +
                             " 0.5\n"));
  auto check = testing::checkOpenMetrics(om);
  EXPECT_TRUE(check.errors.empty()) << ::testing::PrintToString(check.errors);
  const std::string text = r.render(ExpositionFormat::kPrometheusText);
  EXPECT_EQ(testing::promtoolCheckMetrics(text, &out), 0) << out;
  // Both checkers catch what breaks the format.
  EXPECT_NE(testing::parseWithPrometheusClient(om.substr(0, om.size() - 6), &out), 0) << "no # EOF";
  EXPECT_FALSE(testing::checkOpenMetrics(om.substr(0, om.size() - 6)).errors.empty());
  EXPECT_FALSE(testing::checkOpenMetrics(text + "# EOF\n").errors.empty()) << "counter samples need _total";
}

TEST(Exposition, CollectorsMergeReplaceAndGo) {
  MetricsRegistry r;
  r.counter("proflow_profile_cpu_seconds_total", "help", {{"processor", "static"}}).add(1);
  auto sample = [](const std::string& who) {
    return [who](std::vector<MetricFamily>& out, bool) {
      MetricFamily f{"proflow_profile_cpu_seconds_total", MetricType::kCounter, "help", "seconds", {}};
      f.samples.push_back({{{"processor", who}}, 2, std::nullopt});
      out.push_back(std::move(f));
    };
  };
  auto a = r.addCollector("a", sample("a"));
  auto b = r.addCollector("b", sample("b"));
  std::string om = r.render(ExpositionFormat::kOpenMetrics);
  auto check = testing::checkOpenMetrics(om);
  EXPECT_TRUE(check.errors.empty()) << ::testing::PrintToString(check.errors) << om;
  EXPECT_EQ(check.families, 1u);  // one family, three series
  EXPECT_EQ(check.samples, 3u);
  auto a2 = r.addCollector("a", sample("a2"));  // same key: replaces
  EXPECT_THAT(r.renderPrometheus(), Not(HasSubstr("processor=\"a\"")));
  a.reset();  // the replaced one's handle leaves the replacement alone
  EXPECT_THAT(r.renderPrometheus(), HasSubstr("processor=\"a2\""));
  b.reset();
  a2.reset();
  EXPECT_THAT(r.renderPrometheus(), Not(HasSubstr("processor=\"a2\"")));
  EXPECT_THAT(r.renderPrometheus(), HasSubstr("processor=\"static\""));
}

TEST(Exposition, ACollectorIsNotCalledAfterItsHandleIsGone) {
  MetricsRegistry r;
  std::atomic<bool> alive{true}, wrong{false};
  std::atomic<int> calls{0};
  auto handle = std::make_unique<CollectorHandle>(r.addCollector("k", [&](std::vector<MetricFamily>&, bool) {
    if (!alive) wrong = true;
    ++calls;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    if (!alive) wrong = true;
  }));
  std::atomic<bool> stop{false};
  std::thread scraper([&] {
    while (!stop) r.renderPrometheus();
  });
  while (calls < 20) std::this_thread::yield();
  handle.reset();  // waits for a call in progress
  alive = false;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  stop = true;
  scraper.join();
  EXPECT_FALSE(wrong);
}

// GET /metrics on a real socket: the content type and body follow the Accept header.
TEST(Exposition, TheTelemetryEndpointAnswersTheAskedFormat) {
  boost::asio::io_context io;
  auto work = boost::asio::make_work_guard(io);
  std::thread runner([&] { io.run(); });
  MetricsRegistry r;
  r.counter("proflow_things_total", "things").add(7);
  {
    TelemetryServer server(io, {.address = "127.0.0.1:0"}, r, [] { return true; });
    ASSERT_TRUE(server.start().isOk());
    auto get = [&](const std::string& accept) {
      proflow::testing::RawHeaders headers;
      if (!accept.empty()) headers.emplace_back("Accept", accept);
      return proflow::testing::rawExchange(server.port(), proflow::testing::requestHead("GET", "/metrics", headers, 0), "");
    };
    auto om = get(kPrometheusAccept);
    EXPECT_EQ(om.status, 200);
    EXPECT_THAT(om.headers, HasSubstr("application/openmetrics-text; version=1.0.0"));
    EXPECT_THAT(om.body, HasSubstr("# TYPE proflow_things counter\n"));
    EXPECT_TRUE(om.body.ends_with("# EOF\n"));
    for (const std::string accept : {"", "*/*", "text/plain;version=0.0.4"}) {
      auto text = get(accept);
      EXPECT_EQ(text.status, 200);
      EXPECT_THAT(text.headers, HasSubstr("text/plain; version=0.0.4")) << accept;
      EXPECT_THAT(text.body, HasSubstr("# TYPE proflow_things_total counter\nproflow_things_total 7\n"));
      EXPECT_THAT(text.body, Not(HasSubstr("# EOF")));
    }
    server.stop();
  }
  work.reset();
  io.stop();
  runner.join();
}

}  // namespace
}  // namespace proflow::telemetry
