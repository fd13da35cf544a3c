// The tap between receivers and pipelines: accepted batches reach the store through the background
// thread; refused ones are not offered; a full queue, a spent CPU budget or the rate of batches
// their pipelines edit skips batches and counts them.
#include "core/status/flame_tap.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/core/status/flame_test_util.h"

namespace proflow::status {
namespace {

using namespace std::chrono_literals;
using testing::batchOf;

class Answer final : public ProfilesConsumer {
 public:
  explicit Answer(Status s) : status_(std::move(s)) {}
  Status consume(Batch) override { return status_; }

 private:
  Status status_;
};

TEST(FlameTap, AcceptedBatchesAreAggregatedRefusedOnesAreNot) {
  telemetry::MetricsRegistry metrics;
  FlameTap tap({}, metrics);
  TapConsumer ok(std::make_shared<Answer>(Status::ok()), tap);
  TapConsumer refusing(std::make_shared<Answer>(Status::unavailable("queue full")), tap);

  ASSERT_TRUE(ok.consume(Batch(batchOf("api", "cpu/nanoseconds", {{{"work", "main"}, 5}}))).isOk());
  ASSERT_FALSE(refusing.consume(Batch(batchOf("api", "cpu/nanoseconds", {{{"refused", "main"}, 50}}))).isOk());
  ASSERT_TRUE(ok.consume(Batch(batchOf("api", "cpu/nanoseconds", {{{"work", "main"}, 7}}))).isOk());
  tap.flush();

  FlameTree t;
  ASSERT_TRUE(tap.tree("api", "cpu/nanoseconds", 60s, 0s, &t));
  EXPECT_EQ(t.nodes[0].value, 12);
  for (const auto& n : t.nodes) EXPECT_NE(n.name, "refused");
  EXPECT_EQ(metrics.value("proflow_status_flamegraph_batches_total"), 2);
  EXPECT_GT(metrics.value("proflow_status_flamegraph_memory_bytes"), 0);
  EXPECT_EQ(tap.series()->series.size(), 1u);
}

// A pipeline that edits what it gets, noting whether its batch had to be copied for that.
class Editing final : public ProfilesConsumer {
 public:
  Status consume(Batch batch) override {
    const flat::Batch* received = &batch.data();
    copied.push_back(&batch.mutableData() != received);
    return Status::ok();
  }
  std::vector<bool> copied;
};

TEST(FlameTap, BatchesPipelinesEditAreHeldOnlyAtTheirRate) {
  telemetry::MetricsRegistry metrics;
  FlameTap::Options options;
  options.max_edited_per_second = 0.001;  // one, then none for 1,000 s
  FlameTap tap(options, metrics);
  auto editing = std::make_shared<Editing>();
  TapConsumer edited(editing, tap, /*edited=*/true);
  TapConsumer read_only(std::make_shared<Answer>(Status::ok()), tap);

  ASSERT_TRUE(edited.consume(Batch(batchOf("api", "cpu/nanoseconds", {{{"held", "main"}, 5}}))).isOk());
  ASSERT_TRUE(edited.consume(Batch(batchOf("api", "cpu/nanoseconds", {{{"passed", "main"}, 7}}))).isOk());
  ASSERT_TRUE(read_only.consume(Batch(batchOf("api", "cpu/nanoseconds", {{{"read", "main"}, 11}}))).isOk());
  tap.flush();

  // The held batch was copied by its editor; the one passed on was edited where it was.
  EXPECT_EQ(editing->copied, (std::vector<bool>{true, false}));
  FlameTree t;
  ASSERT_TRUE(tap.tree("api", "cpu/nanoseconds", 60s, 0s, &t));
  EXPECT_EQ(t.nodes[0].value, 16);
  for (const auto& n : t.nodes) EXPECT_NE(n.name, "passed");
  EXPECT_EQ(metrics.value("proflow_status_flamegraph_batches_total"), 2);
  EXPECT_EQ(metrics.value("proflow_status_flamegraph_skipped_batches_total"), 1);
}

TEST(FlameTap, BatchesOverThePendingBoundAreSkippedAndCounted) {
  telemetry::MetricsRegistry metrics;
  FlameTap::Options options;
  options.max_pending_bytes = 16;  // smaller than any batch
  FlameTap tap(options, metrics);
  for (int i = 0; i < 3; ++i)
    tap.offer(std::make_shared<const flat::Batch>(batchOf("api", "cpu/nanoseconds", {{{"f", "main"}, 1}})));
  tap.flush();
  EXPECT_EQ(metrics.value("proflow_status_flamegraph_skipped_batches_total"), 3);
  EXPECT_EQ(metrics.value("proflow_status_flamegraph_batches_total"), 0);
  EXPECT_TRUE(tap.series()->series.empty());
}

TEST(FlameTap, BatchesPastTheCpuBudgetAreSkippedAndCounted) {
  telemetry::MetricsRegistry metrics;
  FlameTap::Options options;
  options.max_cpu = 1e-9;  // one nanosecond per second: the first batch spends it
  FlameTap tap(options, metrics);
  std::vector<proflow::testing::SampleSpec> samples;
  for (int i = 0; i < 50; ++i) samples.push_back({{"f" + std::to_string(i), "main"}, 1});
  const auto batch = std::make_shared<const flat::Batch>(batchOf("api", "cpu/nanoseconds", samples));
  for (int i = 0; i < 40; ++i) tap.offer(batch);
  tap.flush();
  const double summed = metrics.value("proflow_status_flamegraph_batches_total");
  const double skipped = metrics.value("proflow_status_flamegraph_skipped_batches_total");
  EXPECT_GE(summed, 1);
  EXPECT_GE(skipped, 35);
  EXPECT_EQ(summed + skipped, 40);
  EXPECT_EQ(tap.series()->series.size(), 1u);  // what was summed is shown
}

TEST(FlameTap, OnceTheBudgetIsSpentBatchesAreSkippedWhereTheyAreOffered) {
  // Skipped by the caller, not queued for the aggregation thread to drop (and release) later: the
  // thread's work stays within its share.
  telemetry::MetricsRegistry metrics;
  FlameTap::Options options;
  options.max_cpu = 1e-9;  // the first batch spends it for years
  FlameTap tap(options, metrics);
  const auto batch = std::make_shared<const flat::Batch>(batchOf("api", "cpu/nanoseconds", {{{"f", "main"}, 1}}));
  tap.offer(batch);
  tap.flush();
  ASSERT_EQ(metrics.value("proflow_status_flamegraph_batches_total"), 1);
  for (int i = 0; i < 10; ++i) tap.offer(batch);
  EXPECT_EQ(metrics.value("proflow_status_flamegraph_skipped_batches_total"), 10);  // before any flush
  EXPECT_EQ(batch.use_count(), 1);  // none is held by the tap
}

TEST(FlameTap, AShareBelowANanosecondIsANanosecond) {
  // Any share in (0, 1] is a valid setting; one too small for the clock must still be a budget.
  telemetry::MetricsRegistry metrics;
  FlameTap::Options options;
  options.max_cpu = 1e-12;
  FlameTap tap(options, metrics);
  const auto batch = std::make_shared<const flat::Batch>(batchOf("api", "cpu/nanoseconds", {{{"f", "main"}, 1}}));
  tap.offer(batch);
  tap.flush();
  EXPECT_EQ(metrics.value("proflow_status_flamegraph_batches_total"), 1);
  tap.offer(batch);
  tap.flush();
  EXPECT_EQ(metrics.value("proflow_status_flamegraph_skipped_batches_total"), 1);
}

TEST(FlameTap, SamplesOverTheMemoryCapAreCounted) {
  telemetry::MetricsRegistry metrics;
  FlameTap::Options options;
  options.store.max_bytes = 2048;
  FlameTap tap(options, metrics);
  std::vector<proflow::testing::SampleSpec> samples;
  for (int i = 0; i < 100; ++i) samples.push_back({{"f" + std::to_string(i), "main"}, 1});
  tap.offer(std::make_shared<const flat::Batch>(batchOf("api", "cpu/nanoseconds", samples)));
  tap.flush();
  EXPECT_GT(metrics.value("proflow_status_flamegraph_dropped_samples_total"), 80);
  EXPECT_LE(tap.memoryBytes(), 2048u);
}

TEST(FlameTap, AnInsertCompletesWhileTheSeriesAreBeingListed) {
  telemetry::MetricsRegistry metrics;
  FlameTap::Options options;
  options.max_cpu = 1;
  options.store.max_bytes = 256u << 20;
  FlameTap tap(options, metrics);
  tap.offer(std::make_shared<const flat::Batch>(testing::manySeries("api", 5000)));
  tap.flush();
  const SeriesListingPtr listing = tap.series();
  EXPECT_EQ(listing->total, 5000u);
  ASSERT_EQ(listing->series.size(), FlameTap::kMaxListedSeries);  // the answer is bounded
  // Mid-listing, a batch of a new series is aggregated and can be queried: the listing holds
  // nothing the insert needs (with the store's lock held here, flush() would never return).
  size_t listed = 0;
  for (const SeriesInfo& s : listing->series) {
    if (listed++ == 0) {
      tap.offer(std::make_shared<const flat::Batch>(batchOf("late", "cpu/nanoseconds", {{{"work", "main"}, 3}})));
      tap.flush();
      FlameTree t;
      ASSERT_TRUE(tap.tree("late", "cpu/nanoseconds", 60s, 0s, &t));
      EXPECT_EQ(t.nodes[0].value, 3);
    }
    EXPECT_NE(s.service, "late");  // a snapshot: what is being listed does not move under the reader
  }
  EXPECT_EQ(listed, FlameTap::kMaxListedSeries);
  EXPECT_EQ(tap.series()->total, 5001u);
}

}  // namespace
}  // namespace proflow::status
