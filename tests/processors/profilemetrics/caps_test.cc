// The profilemetrics processor on small hand-made profiles: exemplar choice between scrapes, the
// caps and their counters, label lengths, pass-through and refusals.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tests/support/dictionary_builder.h"
#include "tests/processors/profilemetrics/harness.h"
#include "tests/support/profile_builder.h"
#include "tests/support/flat_request.h"

namespace proflow::processors::profilemetrics::testing {
namespace {

using namespace std::chrono_literals;
using ::proflow::testing::makeRequest;
using ::proflow::testing::ProfileSpec;
using ::proflow::testing::SampleSpec;

constexpr const char* kTotal = "proflow_profile_cpu_seconds_total";

// One cpu/nanoseconds profile of `service` with these samples; `linked` lists (sample, id): that
// sample gets a link with trace id 16 x id and span id 8 x (0x10 + id) bytes.
Batch request(const std::string& service, const std::vector<SampleSpec>& samples,
              const std::vector<std::pair<int, int>>& linked = {}) {
  ProfileSpec spec;
  spec.samples = samples;
  otlp::Request r = makeRequest(service, {spec});
  DictionaryBuilder dict(r.mutable_dictionary());
  auto* p = r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0);
  for (auto [i, id] : linked)
    p->mutable_samples(i)->set_link_index(
        dict.link(std::string(16, static_cast<char>(id)), std::string(8, static_cast<char>(0x10 + id))));
  return ::proflow::testing::batchOf(std::move(r));
}

std::string hexOf(int byte, int n) {
  char buf[3];
  std::snprintf(buf, sizeof buf, "%02x", byte);
  std::string out;
  for (int i = 0; i < n; ++i) out += buf;
  return out;
}

std::string traceOf(const std::vector<telemetry::MetricFamily>& fs, const std::string& service) {
  auto s = series(fs, kTotal, service)[""];
  return s.exemplar ? label(s.exemplar->labels, "trace_id") : "";
}

ProfileMetricsConfig config(uint32_t top_n) {
  ProfileMetricsConfig c;
  c.top_n = top_n;
  c.window = 10s;
  return c;
}

TEST(ProfileMetricsExemplars, TheHeaviestLinkedSampleSinceTheLastOpenMetricsScrape) {
  Harness h(config(2));
  ASSERT_TRUE(h.processor->consume(request("a", {{{"f"}, 5}, {{"f"}, 9}, {{"f"}, 20}}, {{0, 1}, {1, 2}})).isOk());
  auto s = series(h.scrape(false), kTotal, "a")[""];
  ASSERT_TRUE(s.exemplar);
  EXPECT_EQ(label(s.exemplar->labels, "trace_id"), hexOf(2, 16));  // 9 is the heaviest linked one
  EXPECT_EQ(label(s.exemplar->labels, "span_id"), hexOf(0x12, 8));
  EXPECT_DOUBLE_EQ(s.exemplar->value, 9 / 1e9);
  EXPECT_EQ(label(s.exemplar->labels, "profile_id"), "");  // the profile has no id
  // A scrape without exemplars (Prometheus text) does not start a new choice.
  ASSERT_TRUE(h.processor->consume(request("a", {{{"f"}, 7}}, {{0, 3}})).isOk());
  EXPECT_EQ(traceOf(h.scrape(true), "a"), hexOf(2, 16));
  // After an OpenMetrics scrape showed it, the next linked sample replaces it, lighter or not.
  ASSERT_TRUE(h.processor->consume(request("a", {{{"f"}, 3}, {{"f"}, 1}}, {{1, 4}})).isOk());
  EXPECT_EQ(traceOf(h.scrape(true), "a"), hexOf(4, 16));
  EXPECT_EQ(traceOf(h.scrape(true), "a"), hexOf(4, 16));  // nothing new: the last one stays
  ASSERT_TRUE(h.processor->consume(request("a", {{{"f"}, 100}})).isOk());  // unlinked: no candidate
  EXPECT_EQ(traceOf(h.scrape(true), "a"), hexOf(4, 16));
}

TEST(ProfileMetricsExemplars, AfterAScrapeTheHeaviestOfTheNewOnesWins) {
  Harness h(config(2));
  ASSERT_TRUE(h.processor->consume(request("a", {{{"f"}, 50}}, {{0, 1}})).isOk());
  EXPECT_EQ(traceOf(h.scrape(true), "a"), hexOf(1, 16));
  ASSERT_TRUE(h.processor->consume(request("a", {{{"f"}, 1}, {{"f"}, 2}}, {{0, 5}, {1, 6}})).isOk());
  EXPECT_EQ(traceOf(h.scrape(true), "a"), hexOf(6, 16));
}

TEST(ProfileMetricsCaps, MaxSeriesRefusesNewSeriesAndCountsThem) {
  ProfileMetricsConfig c = config(2);
  c.max_series = 3;
  Harness h(c);
  for (const char* service : {"a", "b", "c"})
    ASSERT_TRUE(h.processor->consume(request(service, {{{"leaf", "main"}, 10}})).isOk());
  ASSERT_TRUE(h.processor->consume(request("d", {{{"leaf", "main"}, 10}, {{"main"}, 4}})).isOk());
  auto fs = h.scrape();
  EXPECT_EQ(family(fs, kTotal)->samples.size(), 3u);
  EXPECT_TRUE(series(fs, kTotal, "d").empty());
  EXPECT_EQ(h.own("profilemetrics_dropped_series_total"), 1);
  EXPECT_EQ(h.own("profilemetrics_dropped_samples_total"), 2);
  // At the window's end each of a, b, c wants a self series (leaf) and two inclusive ones (leaf,
  // main): nine refused.
  h.now += 10s;
  fs = h.scrape();
  EXPECT_EQ(family(fs, "proflow_profile_function_self_cpu_seconds_total"), nullptr);
  EXPECT_EQ(h.own("profilemetrics_dropped_series_total"), 10);
  EXPECT_EQ(h.own("profilemetrics_series"), 3);
}

TEST(ProfileMetricsCaps, FunctionSeriesTakeTheRoomLeftInRankOrder) {
  ProfileMetricsConfig c = config(2);
  c.max_series = 2;
  Harness h(c);
  ASSERT_TRUE(h.processor->consume(request("a", {{{"hot", "main"}, 10}, {{"cold", "main"}, 3}})).isOk());
  h.now += 10s;
  auto fs = h.scrape();
  // One total, then the heaviest self function; the rest is refused.
  auto self = series(fs, "proflow_profile_function_self_cpu_seconds_total", "a");
  ASSERT_EQ(self.size(), 1u);
  EXPECT_DOUBLE_EQ(self["hot"].value, 10 / 1e9);
  EXPECT_EQ(h.own("profilemetrics_series"), 2);
  EXPECT_EQ(h.own("profilemetrics_dropped_series_total"), 3);  // cold self, main and hot inclusive
}

TEST(ProfileMetricsCaps, MaxTrackedFunctionsBoundsWhatAWindowFollows) {
  ProfileMetricsConfig c = config(2);
  c.max_tracked_functions = 2;
  Harness h(c);
  ASSERT_TRUE(h.processor->consume(request("a", {{{"f1", "f2", "f3", "f4"}, 10}})).isOk());
  EXPECT_EQ(h.own("profilemetrics_untracked_functions_total"), 2);
  // The total is whole whatever the functions.
  EXPECT_DOUBLE_EQ(series(h.scrape(), kTotal, "a")[""].value, 10 / 1e9);
}

TEST(ProfileMetricsCaps, LabelValuesAreCutAtACharacterBoundary) {
  ProfileMetricsConfig c = config(2);
  c.max_label_length = 16;
  Harness h(c);
  const std::string service = std::string(11, 'x') + "\xc3\xa9\xc3\xa9\xc3\xa9";  // 11 + 3 x 2 bytes
  ASSERT_TRUE(h.processor->consume(request(service, {{{std::string(40, 'f'), "main"}, 10}})).isOk());
  h.now += 10s;
  const auto fs = h.scrape();
  const std::string cut = std::string(11, 'x') + "\xc3\xa9\xc3\xa9";  // 15 bytes: a third é would pass 16
  ASSERT_EQ(series(fs, kTotal, cut).size(), 1u);
  auto self = series(fs, "proflow_profile_function_self_cpu_seconds_total", cut);
  ASSERT_EQ(self.size(), 1u);
  EXPECT_EQ(self.begin()->first, std::string(16, 'f'));
  EXPECT_EQ(h.own("profilemetrics_truncated_labels_total"), 2);
}

TEST(ProfileMetrics, PassesTheSameDataOnAndCountsOnlyWhatTheNextConsumerTook) {
  Harness h(config(2));
  Batch b = request("a", {{{"f"}, 10}});
  const flat::Batch* data = &b.data();
  h.sink->answer = Status::exhausted("queue full");
  EXPECT_EQ(h.processor->consume(b).code(), StatusCode::kResourceExhausted);
  EXPECT_TRUE(h.scrape().empty());  // refused: the client's retry is what counts
  h.sink->answer = Status::ok();
  ASSERT_TRUE(h.processor->consume(b).isOk());
  ASSERT_EQ(h.sink->batches.size(), 1u);
  EXPECT_EQ(&h.sink->batches[0].data(), data);
  EXPECT_DOUBLE_EQ(series(h.scrape(), kTotal, "a")[""].value, 10 / 1e9);
}

TEST(ProfileMetrics, NegativeValuesAreLeftOutAndTimestampsCountOneEach) {
  Harness h(config(2));
  ProfileSpec spec;
  spec.sample_type = "samples";
  spec.sample_unit = "count";
  spec.samples = {{{"f"}, 4}, {{"f"}, -3}, {{"g"}, 1}};
  otlp::Request r = makeRequest("a", {spec});
  auto* s = r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->mutable_samples(2);
  s->clear_values();
  for (uint64_t t : {1ULL, 2ULL, 3ULL}) s->add_timestamps_unix_nano(1'700'000'000'000'000'000ULL + t);
  ASSERT_TRUE(h.processor->consume(::proflow::testing::batchOf(std::move(r))).isOk());
  h.now += 10s;
  const auto fs = h.scrape();
  EXPECT_EQ(series(fs, "proflow_profile_samples_total", "a")[""].value, 7);
  auto self = series(fs, "proflow_profile_function_self_samples_total", "a");
  EXPECT_EQ(self["f"].value, 4);
  EXPECT_EQ(self["g"].value, 3);
}

TEST(ProfileMetrics, AFunctionOutOfTheTopNAtAWindowsEndLosesItsSeries) {
  Harness h(config(1));
  ASSERT_TRUE(h.processor->consume(request("a", {{{"hot"}, 10}, {{"cold"}, 3}})).isOk());
  h.now += 10s;
  auto self = series(h.scrape(), "proflow_profile_function_self_cpu_seconds_total", "a");
  ASSERT_EQ(self.size(), 1u);
  EXPECT_EQ(self.count("hot"), 1u);
  h.now += 10s;  // nothing came: the top N stays
  EXPECT_EQ(series(h.scrape(), "proflow_profile_function_self_cpu_seconds_total", "a").count("hot"), 1u);
  ASSERT_TRUE(h.processor->consume(request("a", {{{"hot"}, 1}, {{"cold"}, 20}})).isOk());
  h.now += 10s;
  self = series(h.scrape(), "proflow_profile_function_self_cpu_seconds_total", "a");
  ASSERT_EQ(self.size(), 1u);
  EXPECT_DOUBLE_EQ(self["cold"].value, 20 / 1e9);  // its value in the window that let it in
  EXPECT_EQ(h.own("profilemetrics_series"), 3);    // total, cold self, cold inclusive
}

TEST(ProfileMetrics, RecursionCountsOncePerSampleInTheInclusiveValue) {
  Harness h(config(3));
  ASSERT_TRUE(h.processor->consume(request("a", {{{"fib", "fib", "fib", "main"}, 10}, {{"main"}, 4}})).isOk());
  h.now += 10s;
  const auto fs = h.scrape();
  auto inclusive = series(fs, "proflow_profile_function_inclusive_cpu_seconds_total", "a");
  EXPECT_DOUBLE_EQ(inclusive["fib"].value, 10 / 1e9);
  EXPECT_DOUBLE_EQ(inclusive["main"].value, 14 / 1e9);
  auto self = series(fs, "proflow_profile_function_self_cpu_seconds_total", "a");
  EXPECT_DOUBLE_EQ(self["fib"].value, 10 / 1e9);
  EXPECT_DOUBLE_EQ(self["main"].value, 4 / 1e9);
}

TEST(ProfileMetrics, UnitsThatGiveOneNameAddUpInOneSeries) {
  Harness h(config(2));
  ProfileSpec ns, ms;
  ns.samples = {{{"f"}, 1'000'000'000}};
  ms.sample_unit = "milliseconds";
  ms.samples = {{{"f"}, 500}};
  ASSERT_TRUE(h.processor->consume(::proflow::testing::batchOf(makeRequest("a", {ns, ms}))).isOk());
  h.now += 10s;
  const auto fs = h.scrape();
  ASSERT_EQ(family(fs, kTotal)->samples.size(), 1u);
  EXPECT_DOUBLE_EQ(series(fs, kTotal, "a")[""].value, 1.5);
  auto self = series(fs, "proflow_profile_function_self_cpu_seconds_total", "a");
  ASSERT_EQ(family(fs, "proflow_profile_function_self_cpu_seconds_total")->samples.size(), 1u);
  EXPECT_DOUBLE_EQ(self["f"].value, 1.5);
}

// Batches delivered by several threads while the registry renders: every sample is counted once.
TEST(ProfileMetrics, ConcurrentDeliveriesAndScrapesAddUp) {
  Harness h(config(2));
  std::atomic<bool> stop{false};
  std::thread scraper([&] {
    while (!stop) h.registry.render(telemetry::ExpositionFormat::kOpenMetrics);
  });
  std::vector<std::thread> senders;
  for (int t = 0; t < 4; ++t)
    senders.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i)
        EXPECT_TRUE(h.processor->consume(request("s" + std::to_string(t % 2), {{{"f", "main"}, 3}}, {{0, 1 + i % 7}})).isOk());
    });
  for (auto& s : senders) s.join();
  stop = true;
  scraper.join();
  const auto fs = h.scrape();
  EXPECT_DOUBLE_EQ(series(fs, kTotal, "s0")[""].value, 2 * 200 * 3 / 1e9);
  EXPECT_DOUBLE_EQ(series(fs, kTotal, "s1")[""].value, 2 * 200 * 3 / 1e9);
}

TEST(ProfileMetrics, IdleTotalsExpire) {
  ProfileMetricsConfig c = config(2);
  c.idle_timeout = 30s;
  Harness h(c);
  ASSERT_TRUE(h.processor->consume(request("a", {{{"f"}, 10}})).isOk());
  h.now += 25s;
  ASSERT_TRUE(h.processor->consume(request("b", {{{"f"}, 10}})).isOk());
  h.now += 10s;
  auto fs = h.scrape();
  EXPECT_TRUE(series(fs, kTotal, "a").empty());
  EXPECT_TRUE(series(fs, "proflow_profile_function_self_cpu_seconds_total", "a").empty());
  EXPECT_EQ(series(fs, kTotal, "b").size(), 1u);
  EXPECT_EQ(series(fs, "proflow_profile_function_self_cpu_seconds_total", "b").size(), 1u);
  EXPECT_EQ(h.own("profilemetrics_series"), 3);  // b: total, f self, f inclusive
}

// The series are the registry's: rendered with the process's metrics, gone with the processor, and
// taken over by a replacement with the same labels (a reload).
TEST(ProfileMetrics, SeriesLiveInTheRegistryAsLongAsTheProcessor) {
  Harness h(config(2));
  ASSERT_TRUE(h.processor->consume(request("a", {{{"f"}, 10}}, {{0, 1}})).isOk());
  const std::string line = "proflow_profile_cpu_seconds_total{processor=\"profilemetrics\",service_name=\"a\"} 1e-08";
  std::string om = h.registry.render(telemetry::ExpositionFormat::kOpenMetrics);
  EXPECT_THAT(om, ::testing::HasSubstr(line + " # {trace_id=\"" + hexOf(1, 16) + "\",span_id=\"" + hexOf(0x11, 8) +
                                       "\"} 1e-08 1700000000.000\n"));
  EXPECT_THAT(h.registry.renderPrometheus(), ::testing::HasSubstr(line + "\n"));
  CreateSettings s;
  s.id = {"profilemetrics", ""};
  s.kind = ComponentKind::kProcessor;
  s.telemetry = &h.telemetry;
  auto replacement = std::make_unique<ProfileMetricsProcessor>(s, config(2), h.sink);
  EXPECT_THAT(h.registry.renderPrometheus(), ::testing::Not(::testing::HasSubstr("service_name=\"a\"")));
  h.processor.reset();  // the replaced one goes: the replacement's series stay
  ASSERT_TRUE(replacement->consume(request("b", {{{"f"}, 10}})).isOk());
  EXPECT_THAT(h.registry.renderPrometheus(), ::testing::HasSubstr("service_name=\"b\""));
  replacement.reset();
  EXPECT_THAT(h.registry.renderPrometheus(), ::testing::Not(::testing::HasSubstr("service_name=")));
}

}  // namespace
}  // namespace proflow::processors::profilemetrics::testing
