// The one queue -> retry -> timeout chain every exporter runs on (the Collector's exporterhelper).
//
// consume() only enqueues: when the bounded queue is full the batch is refused with a retryable
// RESOURCE_EXHAUSTED, which receivers turn into 429 / RESOURCE_EXHAUSTED for their clients. What was
// enqueued is sent by `num_consumers` workers, retried with exponential backoff and jitter (honouring
// the peer's Retry-After), and on shutdown drained until the deadline; whatever is still queued then
// is counted as dropped and logged, never lost silently. With the queue disabled, consume() sends
// (and retries) in the caller's thread and returns the final status.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "core/exporterhelper/exporter_helper_config.h"
#include "core/exporterhelper/sender.h"
#include "core/factory.h"

namespace proflow::exporterhelper {

class ExporterHelper final : public Exporter {
 public:
  ExporterHelper(const CreateSettings& settings, ExporterHelperConfig config, std::unique_ptr<Sender> sender);
  ~ExporterHelper() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;
  Status consume(Batch batch) override;

  size_t queued() const;

 private:
  void workerLoop();
  Status sendWithRetry(const Batch& batch);
  // Sleeps up to `d`; returns false when shutdown's deadline cut the wait short.
  bool sleepFor(std::chrono::nanoseconds d);
  std::chrono::nanoseconds jittered(std::chrono::nanoseconds interval);

  CreateSettings settings_;
  ExporterHelperConfig config_;
  std::unique_ptr<Sender> sender_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Batch> queue_;
  bool started_ = false;
  bool stopping_ = false;
  Deadline deadline_{};
  std::vector<std::thread> workers_;
  std::mt19937_64 rng_{std::random_device{}()};
};

}  // namespace proflow::exporterhelper
