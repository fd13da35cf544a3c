// The flame graph tap: batches offered on the pipeline's thread are queued (bounded by bytes held,
// beyond which they are skipped and counted) and summed into a FlameStore by one background
// thread, so the pipeline pays a shared-pointer copy and a queue push per batch. That thread spends
// at most `max_cpu` of a core per second, counting all it does for a batch (summing it, and
// releasing it when it holds the last reference): past it, batches are skipped (counted) where they
// are offered until the share is back, so on a busy gateway the graph is a sample of the traffic
// and the status page never takes a noticeable part of the CPU. A tree query takes the store's
// lock for the time of one summation. The series listing takes no store lock at all: the
// aggregation thread (the store's only writer) publishes a bounded listing, at most once per
// second while series change and on flush(), and a query copies a pointer to the last one, so
// however many series the store holds, listing them never waits for the store nor holds it.
//
// Counters (on the telemetry endpoint):
//   proflow_status_flamegraph_batches_total            batches aggregated
//   proflow_status_flamegraph_skipped_batches_total    batches skipped: max_pending_bytes held, max_cpu spent, or
//                                                      edited by their pipelines past max_edited_per_second
//   proflow_status_flamegraph_dropped_samples_total    samples dropped at max_bytes
//   proflow_status_flamegraph_memory_bytes             memory charged to the store
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "core/status/batch_tap.h"
#include "core/status/flame_store.h"
#include "core/telemetry/metrics.h"

namespace proflow::status {

// The series the flame graph holds, as published by the aggregation thread.
struct SeriesListing {
  std::vector<SeriesInfo> series;  // the most sampled kMaxListedSeries, sorted by service then type
  size_t total = 0;                // series held: more than series.size() when the listing is cut
};
using SeriesListingPtr = std::shared_ptr<const SeriesListing>;

class FlameTap final : public BatchTap {
 public:
  static constexpr size_t kMaxListedSeries = 1000;
  // How stale the published listing may be while series change.
  static constexpr std::chrono::seconds kListingEvery{1};

  struct Options {
    FlameStore::Options store;
    size_t max_pending_bytes = 32u << 20;
    double max_cpu = 0.05;  // share of one core per second
    // Batches that pipelines edit, held at most this many times a second (0: none): each one held
    // costs its editor a copy of the batch.
    double max_edited_per_second = 100;
  };
  FlameTap(Options options, telemetry::MetricsRegistry& metrics);
  ~FlameTap() override;  // stops the thread; pending batches are discarded

  void offer(std::shared_ptr<const flat::Batch> batch) override;
  bool holdEdited() override;

  // Waits until every batch offered before the call is aggregated and listed (tests, benchmarks).
  void flush();

  // The last published listing (never null). Takes no store lock.
  SeriesListingPtr series();
  bool tree(const std::string& service, const std::string& type, std::chrono::seconds window,
            std::chrono::seconds base, FlameTree* out);
  size_t memoryBytes();
  size_t maxBytes() const { return options_.store.max_bytes; }
  uint64_t droppedSamples() const { return dropped_samples_->value(); }
  uint64_t skippedBatches() const { return skipped_batches_->value(); }

 private:
  struct Pending {
    std::shared_ptr<const flat::Batch> batch;
    Clock::time_point at;
    size_t bytes;
  };
  void run();
  void aggregate(Pending& p);
  // Builds and publishes the listing (aggregation thread only: it reads the store it alone writes).
  void publishListing();
  // False when this second's CPU budget is spent (aggregation thread only).
  bool withinCpuBudget();
  // After a batch's CPU is counted: once the budget is spent, offer() skips until it is back.
  void closeWhileSpent();
  std::chrono::nanoseconds budgetPerSecond() const;  // max_cpu of one core

  const Options options_;
  telemetry::Counter* batches_;
  telemetry::Counter* skipped_batches_;
  telemetry::Counter* dropped_samples_;
  telemetry::Gauge* memory_;
  // The aggregation thread's CPU budget: the second it counts for and the CPU time used in it.
  Clock::time_point budget_second_{};
  std::chrono::nanoseconds budget_used_{0};
  // Until when offer() skips batches (Clock ticks): the budget is spent until then.
  std::atomic<Clock::rep> closed_until_{0};
  // When the next edited batch may be held (Clock ticks).
  std::atomic<Clock::rep> next_edited_{0};

  std::mutex queue_mu_;
  std::condition_variable queue_cv_, idle_cv_;
  std::deque<Pending> queue_;
  size_t pending_bytes_ = 0;
  bool busy_ = false;
  bool stopping_ = false;
  bool listing_requested_ = false;  // by flush(): publish once the queue is empty

  std::mutex store_mu_;  // held by the aggregation thread while it changes the store, by tree queries
  FlameStore store_;
  // Aggregation thread only: the store changed since the listing was published, and when it was.
  bool listing_stale_ = false;
  Clock::time_point listed_at_{};
  std::mutex listing_mu_;  // guards only the pointer swap
  SeriesListingPtr listing_ = std::make_shared<const SeriesListing>();
  std::thread thread_;
};

}  // namespace proflow::status
