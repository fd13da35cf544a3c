// The flame graph store: stacks summed per service and sample type, windows of 1/5/15 minutes over
// time buckets, the memory cap (drops counted), and expiry freeing memory.
#include "core/status/flame_store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "tests/core/status/flame_test_util.h"

namespace proflow::status {
namespace {

using namespace std::chrono_literals;
using testing::batchOf;

// "root;child;leaf" -> value, for every node of the tree with a self value.
std::map<std::string, int64_t> folded(const FlameTree& t) {
  std::map<std::string, int64_t> out;
  for (uint32_t i = 1; i < t.nodes.size(); ++i) {
    if (t.self(i) == 0) continue;
    std::string path;
    for (uint32_t n = i; n != 0; n = t.nodes[n].parent) path = t.nodes[n].name + (path.empty() ? "" : ";" + path);
    out[path] += t.self(i);
  }
  return out;
}

const Clock::time_point t0 = Clock::time_point() + 1000h;

TEST(FlameStore, SumsStacksRootFirstPerServiceAndType) {
  FlameStore store({}, t0);
  store.add(batchOf("api", "cpu/nanoseconds", {{{"leaf", "mid", "main"}, 5}, {{"other", "main"}, 2}, {{"leaf", "mid", "main"}, 1}}), t0);
  store.add(batchOf("api", "alloc_space/bytes", {{{"malloc", "main"}, 100}}), t0);
  store.add(batchOf("db", "cpu/nanoseconds", {{{"query", "main"}, 7}}), t0);

  FlameTree t;
  ASSERT_TRUE(store.tree("api", "cpu/nanoseconds", 60s, 0s, t0 + 1s, &t));
  EXPECT_EQ(folded(t), (std::map<std::string, int64_t>{{"main;mid;leaf", 6}, {"main;other", 2}}));
  EXPECT_EQ(t.nodes[0].value, 8);
  EXPECT_EQ(t.samples, 3u);
  FlameTree alloc;
  ASSERT_TRUE(store.tree("api", "alloc_space/bytes", 60s, 0s, t0 + 1s, &alloc));
  EXPECT_EQ(folded(alloc), (std::map<std::string, int64_t>{{"main;malloc", 100}}));
  FlameTree db;
  ASSERT_TRUE(store.tree("db", "cpu/nanoseconds", 60s, 0s, t0 + 1s, &db));
  EXPECT_EQ(folded(db), (std::map<std::string, int64_t>{{"main;query", 7}}));
  FlameTree none;
  EXPECT_FALSE(store.tree("db", "alloc_space/bytes", 60s, 0s, t0 + 1s, &none));

  const auto series = store.series(t0 + 1s);
  ASSERT_EQ(series.size(), 3u);
  EXPECT_EQ(series[0].service, "api");
  EXPECT_EQ(series[0].type, "alloc_space/bytes");
  EXPECT_EQ(series[1].type, "cpu/nanoseconds");
  EXPECT_EQ(series[1].value, 8);
  EXPECT_EQ(series[2].service, "db");
}

TEST(FlameStore, WindowsSumTheirBucketsAndTheComparisonIsScaledToTheWindow) {
  FlameStore store({}, t0);
  store.add(batchOf("api", "cpu/nanoseconds", {{{"old", "main"}, 100}}), t0);           // 10 minutes before `now`
  store.add(batchOf("api", "cpu/nanoseconds", {{{"recent", "main"}, 30}}), t0 + 7min);  // 3 minutes before
  store.add(batchOf("api", "cpu/nanoseconds", {{{"new", "main"}, 6}}), t0 + 9min + 40s); // 20 s before
  const auto now = t0 + 10min + 5s;  // 5 s into a 10 s bucket

  FlameTree m1, m5, m15;
  ASSERT_TRUE(store.tree("api", "cpu/nanoseconds", 60s, 0s, now, &m1));
  ASSERT_TRUE(store.tree("api", "cpu/nanoseconds", 300s, 0s, now, &m5));
  ASSERT_TRUE(store.tree("api", "cpu/nanoseconds", 900s, 0s, now, &m15));
  EXPECT_EQ(folded(m1), (std::map<std::string, int64_t>{{"main;new", 6}}));
  EXPECT_EQ(folded(m5), (std::map<std::string, int64_t>{{"main;new", 6}, {"main;recent", 30}}));
  EXPECT_EQ(folded(m15), (std::map<std::string, int64_t>{{"main;new", 6}, {"main;recent", 30}, {"main;old", 100}}));
  // Whole buckets: the 1m window is the current bucket (5 s so far) and the 5 before it.
  EXPECT_DOUBLE_EQ(m1.seconds, 55);
  EXPECT_DOUBLE_EQ(m15.seconds, 605);  // the store is 10 minutes old

  // 1m against the 15m window: the 15m values (136 over 605 s) scaled to 55 s.
  FlameTree cmp;
  ASSERT_TRUE(store.tree("api", "cpu/nanoseconds", 60s, 900s, now, &cmp));
  ASSERT_TRUE(cmp.has_base);
  EXPECT_NEAR(cmp.nodes[0].base, 136.0 * 55 / 605, 1e-9);
  EXPECT_EQ(cmp.nodes[0].value, 6);
  bool saw_old = false;
  for (const auto& n : cmp.nodes)
    if (n.name == "old") {
      saw_old = true;
      EXPECT_EQ(n.value, 0);  // shrank: only in the comparison window
      EXPECT_NEAR(n.base, 100.0 * 55 / 605, 1e-9);
    }
  EXPECT_TRUE(saw_old);
}

TEST(FlameStore, DataOlderThanFifteenMinutesIsDroppedAndItsMemoryFreed) {
  FlameStore store({}, t0);
  std::vector<proflow::testing::SampleSpec> samples;
  for (int i = 0; i < 200; ++i) samples.push_back({{"f" + std::to_string(i), "main"}, 1});
  store.add(batchOf("api", "cpu/nanoseconds", samples), t0);
  const size_t full = store.memoryBytes();
  EXPECT_GT(full, 200u * 48);
  store.advance(t0 + 14min);
  EXPECT_EQ(store.memoryBytes(), full);
  store.advance(t0 + 15min + 10s);
  EXPECT_EQ(store.memoryBytes(), 0u);
  EXPECT_TRUE(store.series(t0 + 15min + 10s).empty());
  FlameTree t;
  EXPECT_FALSE(store.tree("api", "cpu/nanoseconds", 900s, 0s, t0 + 15min + 10s, &t));
  // Still usable afterwards, with the same names.
  store.add(batchOf("api", "cpu/nanoseconds", {{{"f1", "main"}, 3}}), t0 + 16min);
  ASSERT_TRUE(store.tree("api", "cpu/nanoseconds", 60s, 0s, t0 + 16min, &t));
  EXPECT_EQ(folded(t), (std::map<std::string, int64_t>{{"main;f1", 3}}));
}

TEST(FlameStore, TheCapDropsNewStacksAndCountsThemButKeepsAddingToKnownOnes) {
  FlameStore::Options options;
  options.max_bytes = 4096;
  FlameStore store(options, t0);
  std::vector<proflow::testing::SampleSpec> samples;
  for (int i = 0; i < 500; ++i) samples.push_back({{"function_number_" + std::to_string(i), "main"}, 1});
  store.add(batchOf("api", "cpu/nanoseconds", samples), t0);
  EXPECT_LE(store.memoryBytes(), 4096u);
  EXPECT_GT(store.droppedSamples(), 400u);
  EXPECT_LT(store.droppedSamples(), 500u);
  const uint64_t dropped = store.droppedSamples();
  FlameTree before;
  ASSERT_TRUE(store.tree("api", "cpu/nanoseconds", 60s, 0s, t0, &before));
  // A stack already kept still counts at the cap.
  store.add(batchOf("api", "cpu/nanoseconds", {{{"function_number_0", "main"}, 10}}), t0);
  EXPECT_EQ(store.droppedSamples(), dropped);
  FlameTree after;
  ASSERT_TRUE(store.tree("api", "cpu/nanoseconds", 60s, 0s, t0, &after));
  EXPECT_EQ(after.nodes[0].value, before.nodes[0].value + 10);
}

TEST(FlameStore, SeriesTotalsFollowArrivalAndExpiryAndTheListingIsBounded) {
  FlameStore::Options options;
  options.max_bytes = 256u << 20;
  FlameStore store(options, t0);
  store.add(testing::manySeries("api", 70000), t0);
  store.add(testing::manySeries("api", 10), t0 + 10min);  // t0..t9 again, 10 minutes later
  EXPECT_EQ(store.seriesCount(t0 + 10min), 70000u);
  // The 1,000 most sampled (7 samples: i % 7 == 6, and t0..t9 sampled twice), sorted by name.
  const auto top = store.series(t0 + 10min, 1000);
  ASSERT_EQ(top.size(), 1000u);
  EXPECT_TRUE(std::is_sorted(top.begin(), top.end(), [](const SeriesInfo& a, const SeriesInfo& b) {
    return std::tie(a.service, a.type) < std::tie(b.service, b.type);
  }));
  for (const SeriesInfo& s : top) EXPECT_GE(s.samples, 7u) << s.type;
  auto find = [](const std::vector<SeriesInfo>& all, const std::string& type) {
    for (const SeriesInfo& s : all)
      if (s.type == type) return s;
    return SeriesInfo{};
  };
  EXPECT_EQ(find(top, "t6/count").samples, 14u);  // 7 at t0, 7 ten minutes later
  // Once the first batch's bucket expires, only the second one counts.
  EXPECT_EQ(store.series(t0 + 15min + 10s).size(), 10u);
  EXPECT_TRUE(store.advance(t0 + 15min + 10s));
  const auto later = store.series(t0 + 15min + 10s);
  ASSERT_EQ(later.size(), 10u);
  EXPECT_EQ(find(later, "t6/count").samples, 7u);
  EXPECT_EQ(find(later, "t6/count").value, 7);
  EXPECT_EQ(find(later, "t3/count").samples, 4u);
}

}  // namespace
}  // namespace proflow::status
