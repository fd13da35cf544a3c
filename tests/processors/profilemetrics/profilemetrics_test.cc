// The profilemetrics processor on a real Go CPU profile (converted as the pprof receivers do):
// totals, top-N functions per window and exemplars, each checked against what the pprof itself says.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "processors/profilemetrics/metric_naming.h"
#include "tests/processors/profilemetrics/go_cpu_fixture.h"
#include "tests/processors/profilemetrics/harness.h"

namespace proflow::processors::profilemetrics::testing {
namespace {

using namespace std::chrono_literals;

ProfileMetricsConfig config(uint32_t top_n, std::chrono::nanoseconds window = 10s) {
  ProfileMetricsConfig c;
  c.top_n = top_n;
  c.window = window;
  return c;
}

Status send(Harness& h, const std::string& service) { return h.processor->consume(Batch(goCpuBatch(service))); }

const Expected& expectedOf(const std::vector<Expected>& all, const std::string& type) {
  for (const auto& e : all)
    if (e.type == type) return e;
  ADD_FAILURE() << "no sample type " << type;
  return all.front();
}

TEST(ProfileMetrics, TotalsAreTheSumsOfTheSampleValuesPerServiceAndSampleType) {
  Harness h(config(5));
  ASSERT_TRUE(send(h, "checkout").isOk());
  ASSERT_TRUE(send(h, "checkout").isOk());
  ASSERT_TRUE(send(h, "search").isOk());
  const auto expected = expectedGoCpu();
  ASSERT_EQ(expected.size(), 2u);
  const Expected& cpu = expectedOf(expected, "cpu");
  const Expected& samples = expectedOf(expected, "samples");
  ASSERT_EQ(cpu.unit, "nanoseconds");
  ASSERT_GT(cpu.total, 0);

  const auto fs = h.scrape();
  // Names carry the unit as OpenMetrics has it: CPU time in seconds, counts without a unit.
  auto cpu_checkout = series(fs, "proflow_profile_cpu_seconds_total", "checkout");
  ASSERT_EQ(cpu_checkout.count(""), 1u);
  EXPECT_DOUBLE_EQ(cpu_checkout[""].value, static_cast<double>(2 * cpu.total) / 1e9);
  EXPECT_DOUBLE_EQ(series(fs, "proflow_profile_cpu_seconds_total", "search")[""].value,
                   static_cast<double>(cpu.total) / 1e9);
  EXPECT_EQ(series(fs, "proflow_profile_samples_total", "checkout")[""].value, static_cast<double>(2 * samples.total));
  EXPECT_EQ(series(fs, "proflow_profile_samples_total", "search")[""].value, static_cast<double>(samples.total));
  const auto* f = family(fs, "proflow_profile_cpu_seconds_total");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->type, telemetry::MetricType::kCounter);
  EXPECT_EQ(f->unit, "seconds");
  EXPECT_EQ(label(f->samples.front().labels, "processor"), "profilemetrics");
  ASSERT_EQ(h.sink->batches.size(), 3u);
  EXPECT_EQ(h.own("profilemetrics_series"), 4);
}

TEST(ProfileMetrics, TopFunctionsAreRecomputedAtTheEndOfEachWindow) {
  Harness h(config(3));
  ASSERT_TRUE(send(h, "checkout").isOk());
  const auto all = expectedGoCpu();
  const Expected& cpu = expectedOf(all, "cpu");
  const auto top_self = topN(cpu.self, 3), top_inclusive = topN(cpu.inclusive, 3);
  ASSERT_EQ(top_self.size(), 3u);
  ASSERT_EQ(top_inclusive.size(), 3u);

  // Within the first window no function has a series yet.
  EXPECT_TRUE(series(h.scrape(), "proflow_profile_function_self_cpu_seconds_total", "checkout").empty());
  h.now += 10s;
  auto fs = h.scrape();
  auto self = series(fs, "proflow_profile_function_self_cpu_seconds_total", "checkout");
  auto inclusive = series(fs, "proflow_profile_function_inclusive_cpu_seconds_total", "checkout");
  ASSERT_EQ(self.size(), 3u);
  ASSERT_EQ(inclusive.size(), 3u);
  for (const auto& [name, v] : top_self) {
    ASSERT_EQ(self.count(name), 1u) << name;
    EXPECT_DOUBLE_EQ(self[name].value, static_cast<double>(v) / 1e9) << name;
  }
  for (const auto& [name, v] : top_inclusive) {
    ASSERT_EQ(inclusive.count(name), 1u) << name;
    EXPECT_DOUBLE_EQ(inclusive[name].value, static_cast<double>(v) / 1e9) << name;
  }
  // The sample-count type has its own top N.
  EXPECT_EQ(series(fs, "proflow_profile_function_self_samples_total", "checkout").size(), 3u);

  // While in the top N a series counts every sample (a counter); it stays across window ends.
  ASSERT_TRUE(send(h, "checkout").isOk());
  h.now += 10s;
  self = series(h.scrape(), "proflow_profile_function_self_cpu_seconds_total", "checkout");
  ASSERT_EQ(self.size(), 3u);
  for (const auto& [name, v] : top_self) EXPECT_DOUBLE_EQ(self[name].value, static_cast<double>(2 * v) / 1e9) << name;
  // A window without any sample of the service leaves its top N as it was.
  h.now += 10s;
  EXPECT_EQ(series(h.scrape(), "proflow_profile_function_self_cpu_seconds_total", "checkout").size(), 3u);
}

TEST(ProfileMetrics, TopNIsBoundedPerServiceAndSampleType) {
  Harness h(config(2));
  for (const char* service : {"a", "b", "c"}) ASSERT_TRUE(send(h, service).isOk());
  h.now += 10s;
  const auto fs = h.scrape();
  for (const char* service : {"a", "b", "c"})
    for (const char* name : {"proflow_profile_function_self_cpu_seconds_total",
                             "proflow_profile_function_inclusive_cpu_seconds_total",
                             "proflow_profile_function_self_samples_total",
                             "proflow_profile_function_inclusive_samples_total"})
      EXPECT_EQ(series(fs, name, service).size(), 2u) << service << " " << name;
  // 3 services x 2 sample types x (1 total + 2 self + 2 inclusive).
  EXPECT_EQ(h.own("profilemetrics_series"), 30);
}

// The exemplar of a series is the heaviest trace-linked sample it counted: its ids are the pprof
// labels of such a sample, and its value that sample's value.
TEST(ProfileMetrics, ExemplarsCarryTheIdsOfTheHeaviestLinkedSample) {
  Harness h(config(3));
  flat::Batch batch = goCpuBatch("checkout");
  std::string profile_id;
  for (const auto& p : batch.profiles)
    if (batch.string(p.sample_type.type_strindex) == "cpu") profile_id = idHex(batch.view(p.profile_id));
  ASSERT_TRUE(h.processor->consume(Batch(std::move(batch))).isOk());
  h.now += 10s;
  const auto fs = h.scrape();
  const auto all = expectedGoCpu();
  const Expected& cpu = expectedOf(all, "cpu");
  ASSERT_FALSE(cpu.linked.empty());

  auto check = [&](const telemetry::MetricSample& s, const std::function<bool(const LinkedSample&)>& counted) {
    ASSERT_TRUE(s.exemplar.has_value());
    int64_t heaviest = -1;
    for (const auto& l : cpu.linked)
      if (counted(l)) heaviest = std::max(heaviest, l.value);
    const auto& e = *s.exemplar;
    EXPECT_DOUBLE_EQ(e.value, static_cast<double>(heaviest) / 1e9);
    const bool matches = std::any_of(cpu.linked.begin(), cpu.linked.end(), [&](const LinkedSample& l) {
      return counted(l) && l.value == heaviest && l.trace_id == label(e.labels, "trace_id") &&
             l.span_id == label(e.labels, "span_id");
    });
    EXPECT_TRUE(matches) << label(e.labels, "trace_id") << "/" << label(e.labels, "span_id");
    EXPECT_EQ(label(e.labels, "profile_id"), profile_id);
    EXPECT_EQ(e.labels.front().first, "trace_id");
    ASSERT_TRUE(e.timestamp.has_value());
    EXPECT_GT(*e.timestamp, 1.5e9);  // the profile's time, Unix seconds
  };
  check(series(fs, "proflow_profile_cpu_seconds_total", "checkout")[""], [](const LinkedSample&) { return true; });
  for (auto& [name, s] : series(fs, "proflow_profile_function_self_cpu_seconds_total", "checkout"))
    if (std::any_of(cpu.linked.begin(), cpu.linked.end(), [&](const LinkedSample& l) { return l.leaf == name; }))
      check(s, [&, n = name](const LinkedSample& l) { return l.leaf == n; });
  for (auto& [name, s] : series(fs, "proflow_profile_function_inclusive_cpu_seconds_total", "checkout"))
    if (std::any_of(cpu.linked.begin(), cpu.linked.end(), [&](const LinkedSample& l) { return l.functions.count(name); }))
      check(s, [&, n = name](const LinkedSample& l) { return l.functions.count(n) > 0; });
}

TEST(ProfileMetrics, TopZeroExposesTotalsOnly) {
  Harness h(config(0));
  ASSERT_TRUE(send(h, "checkout").isOk());
  h.now += 10s;
  const auto fs = h.scrape();
  EXPECT_EQ(fs.size(), 2u);  // cpu_seconds and samples totals
  EXPECT_EQ(family(fs, "proflow_profile_function_self_cpu_seconds_total"), nullptr);
}

}  // namespace
}  // namespace proflow::processors::profilemetrics::testing
