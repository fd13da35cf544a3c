// The one queue -> retry -> timeout chain every exporter runs on (the Collector's exporterhelper).
//
// consume() only enqueues: when the bounded queue is full the batch is refused with a retryable
// RESOURCE_EXHAUSTED, which receivers turn into 429 / RESOURCE_EXHAUSTED for their clients. What was
// enqueued is sent by `num_consumers` workers, retried with exponential backoff and jitter (honouring
// the peer's Retry-After), and on shutdown drained until the deadline; whatever is still queued then
// is counted as dropped and logged, never lost silently. With the queue disabled, consume() sends
// (and retries) in the caller's thread and returns the final status.
//
// With `sending_queue.directory` the queue is persistent (persistent_store.h): consume() acknowledges
// a batch only once it is on disk, a batch leaves the disk when it is delivered or fails for good,
// and what is pending at shutdown stays there and is resent, in order, by the next start.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "core/exporterhelper/exporter_helper_config.h"
#include "core/exporterhelper/persistent_store.h"
#include "core/component/durable_acceptance.h"
#include "core/exporterhelper/sender.h"
#include "core/component/factory.h"

namespace proflow::exporterhelper {

class ExporterHelper final : public Exporter, public DurableAcceptance {
 public:
  ExporterHelper(const CreateSettings& settings, ExporterHelperConfig config, std::unique_ptr<Sender> sender);
  ~ExporterHelper() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;
  Status consume(Batch batch) override;
  // With a persistent queue, an accepted batch is on disk (fsync'd with `sending_queue.fsync`).
  bool acceptsDurably() const override { return store_ != nullptr; }

  size_t queued() const;

 private:
  // A queued batch: in memory, on disk (seq != 0), or both.
  struct Entry {
    std::optional<Batch> batch;  // empty for batches a previous run left on disk (read when sent)
    uint64_t seq = 0;
  };
  // With mu_ held: why consume() must refuse now (not running, queue full), or OK.
  Status refusalLocked() const;
  void pushLocked(Entry entry);
  Status enqueuePersistent(Batch batch);
  void workerLoop();
  // After the last attempt: forget the batch (delivered or failed for good) or keep it on disk.
  void settle(const Entry& entry, const Batch& batch, const Status& result);
  Status sendWithRetry(const Batch& batch);
  // Shutting down, and a retry after `wait` would come after the deadline.
  bool retryMissesShutdownDeadline(std::chrono::nanoseconds wait) const;
  // Sleeps up to `d`; returns false when shutdown's deadline cut the wait short.
  bool sleepFor(std::chrono::nanoseconds d);
  std::chrono::nanoseconds jittered(std::chrono::nanoseconds interval);

  CreateSettings settings_;
  ExporterHelperConfig config_;
  std::unique_ptr<Sender> sender_;
  telemetry::Counter& retries_;

  mutable std::mutex mu_;
  std::condition_variable cv_;       // work queued, or stopping: wakes idle workers
  std::condition_variable stop_cv_;  // stopping, or a worker ended: wakes back-off waits and shutdown()
  std::deque<Entry> queue_;
  std::unique_ptr<PersistentStore> store_;  // null: memory-only queue
  telemetry::Counter* corrupt_batches_ = nullptr;  // with store_
  bool started_ = false;
  bool stopping_ = false;
  Deadline deadline_{};
  std::vector<std::thread> workers_;
  int running_workers_ = 0;  // workers whose loop has not returned
  std::mt19937_64 rng_{std::random_device{}()};
};

}  // namespace proflow::exporterhelper
