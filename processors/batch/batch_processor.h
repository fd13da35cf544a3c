// The `batch` processor: merges incoming batches into one request with one dictionary and sends it
// downstream when it holds `send_batch_size` profiles or `timeout` after its first batch arrived.
//
// Delivery: consume() only merges (under a lock) and returns; one sender thread hands requests
// downstream in order. A retryable refusal keeps the request and retries it with backoff; when the
// data held passes the caps, consume() refuses new batches with RESOURCE_EXHAUSTED so receivers
// push back on their clients. Data is dropped (and counted) only on a permanent downstream error or
// when the shutdown deadline passes.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "core/factory.h"
#include "core/request_merger.h"
#include "processors/batch/config.h"

namespace proflow::processors::batch {

class BatchProcessor final : public Processor {
 public:
  BatchProcessor(const CreateSettings& settings, const BatchProcessorConfig& config, ConsumerPtr next);
  ~BatchProcessor() override;

  // The processor copies what it receives into its own request, so upstream may share batches.
  Capabilities capabilities() const override { return {.mutates_data = false}; }
  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;
  Status consume(Batch batch) override;

 private:
  using Clock = std::chrono::steady_clock;

  // The request being filled.
  struct Pending {
    std::unique_ptr<otlp::Request> request = std::make_unique<otlp::Request>();
    RequestMerger merger{request.get()};
    uint64_t profiles = 0;
    uint64_t bytes = 0;  // sum of the incoming batches' sizes (the merged request is smaller)
    Clock::time_point first_arrival;
  };
  // A request cut and waiting for the sender (or for a retry).
  struct Ready {
    Batch batch;
    BatchCounts counts;
    uint64_t bytes = 0;
  };

  void cutLocked();
  void senderLoop();
  bool drainedLocked() const { return !pending_ && ready_.empty(); }
  void handleResultLocked(const Status& s, Clock::time_point now);
  void dropLeftoversLocked(const char* why);
  void updateGaugesLocked();
  Clock::time_point nextWakeLocked() const;

  CreateSettings settings_;
  BatchProcessorConfig config_;
  ConsumerPtr next_;
  const uint64_t max_profiles_;  // buffered-profile cap, 0 = none

  std::mutex mu_;
  std::condition_variable cv_;
  std::unique_ptr<Pending> pending_;
  std::deque<Ready> ready_;
  uint64_t buffered_profiles_ = 0;
  uint64_t buffered_bytes_ = 0;
  Clock::time_point retry_at_{};
  std::chrono::milliseconds backoff_;
  bool stopping_ = false;
  bool stopped_ = false;
  Clock::time_point deadline_{};
  std::thread sender_;

  telemetry::Gauge* buffered_profiles_gauge_ = nullptr;
  telemetry::Gauge* buffered_bytes_gauge_ = nullptr;
  telemetry::Counter* retries_ = nullptr;
};

}  // namespace proflow::processors::batch
