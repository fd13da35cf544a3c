// The `batch` processor: merges incoming batches into requests with one dictionary and sends them
// downstream when one holds `send_batch_size` profiles or `timeout` after its first batch arrived.
//
// Merging runs on the callers' threads, in `shards` independent buffers: each resource goes to the
// shard its identity hashes to (shard_router.h), so N workers merge N requests at once and one
// resource's data stays in order. The only lock shared by all callers guards the hand-off of a cut
// request to the sender, once per flush; the caps on held data are atomics. When two callers' data
// lands in one shard at once (not waiting), the second leaves its part in the shard's inbox and
// returns; the first merges it before letting go of the shard (flat combining), so no caller sleeps
// behind another's merge.
//
// Two ways to acknowledge (wait_for_flush):
// - not waiting (the default unless a downstream exporter is durable): consume() merges and returns;
//   one sender thread hands cut requests downstream in order, retrying retryable refusals with
//   backoff. Acknowledged data sits in memory until the downstream takes it, so a crash loses it.
// - waiting (`true`, or `auto` with a persistent queue downstream): consume() returns only once the
//   request holding the caller's data was taken downstream, with the downstream's answer. Callers
//   of one shard share flushes (group commit): the first one flushes, the others' data merges
//   meanwhile and goes out in the next flush as soon as the current one returns, so a flush never
//   waits for the timeout while a caller waits for it.
// Data is dropped (and counted) only on a permanent downstream error or when the shutdown deadline
// passes, and only in the not-waiting mode (waiting callers get the refusal instead). A request
// refused for its data holds other callers' data too: it is cut in two and each half sent again
// (bisect.h) until only the refused profiles are left to drop; a waiting caller whose shared flush
// was refused so sends its own data alone and gets the answer to it.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/component/factory.h"
#include "core/flat/flat_merge.h"
#include "core/telemetry/log_throttle.h"
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

  // True when consume() acknowledges only after the downstream took the data (known after start()).
  bool waitsForFlush() const { return wait_for_flush_; }
  // Callers whose data is merged and who wait for its flush (waiting mode).
  int waitingCallers() const { return waiting_.load(); }
  // The metadata every request it sends carries (one instance per metadata_keys value: those keys
  // and values). Set before start().
  void stampOutput(ClientMetadataPtr metadata) { stamp_ = std::move(metadata); }

 private:
  using Clock = std::chrono::steady_clock;

  // How a flush that waiting callers share ended.
  struct [[nodiscard]] FlushOutcome {
    bool done = false;
    Status status;
    int callers = 0;  // callers whose data the flush holds
  };
  // The batch being filled in one shard (flat: appended through remap tables, linear time).
  struct Pending {
    flat::Batch merged;
    flat::Merger merger{&merged};
    uint64_t profiles = 0;
    uint64_t bytes = 0;  // sum of the incoming batches' sizes (the merged batch is smaller)
    Clock::time_point first_arrival;
    std::shared_ptr<FlushOutcome> outcome = std::make_shared<FlushOutcome>();
  };
  // A part whose caller found its shard busy (not-waiting mode).
  struct Inboxed {
    Batch batch;
    uint64_t profiles = 0;
    uint64_t bytes = 0;
  };
  struct Shard {
    std::mutex mu;
    // Not-waiting mode: parts whose caller found `mu` held. Whoever holds `mu` merges them before
    // letting go (flat combining), so a caller never waits behind another's merge; first in, first
    // merged, so one caller's parts keep their order.
    std::mutex inbox_mu;
    std::vector<Inboxed> inbox;
    std::atomic<size_t> inboxed{0};  // inbox.size(), for the sender to read without inbox_mu
    std::condition_variable flushed;  // waiting mode: a flush of this shard ended
    std::unique_ptr<Pending> pending;
    bool flushing = false;  // waiting mode: one flush per shard at a time keeps the order
    // When the pending request's timeout is due (ns since the clock's epoch), for the sender to
    // read without the shard's lock; max = nothing pending.
    std::atomic<int64_t> due{kNever};
  };
  // A request cut and waiting for the sender (or for a retry).
  struct Ready {
    Batch batch;
    BatchCounts counts;
    uint64_t bytes = 0;
  };
  static constexpr int64_t kNever = INT64_MAX;

  Status reserve(const BatchCounts& counts, uint64_t bytes);
  void release(uint64_t profiles, uint64_t bytes);
  // Merges one shard's part of a batch (already counted as held).
  Status consumePart(Shard& shard, Batch batch, const BatchCounts& counts, uint64_t bytes);
  void mergeLocked(Shard& shard, const Batch& batch, uint64_t profiles, uint64_t bytes);
  // With the shard's lock: merges the inbox (empty in waiting mode), then `own`, cutting requests
  // as they fill. Every holder of a shard's lock outside waiting mode calls it before letting go.
  void combineLocked(Shard& shard, std::optional<Inboxed> own = std::nullopt);
  // After letting go of a shard's lock: parts left in its inbox meanwhile are merged here, unless
  // another thread holds the lock (it merges them before letting go).
  void combineWhileFree(Shard& shard);
  bool flushDueLocked(const Shard& shard) const;
  // Cuts the shard's pending request into requests of at most send_batch_max_size profiles.
  std::vector<Ready> cutLocked(Shard& shard);
  // `own` is the caller's data, sent alone when the shared flush was refused for its data.
  Status flushAndWait(Shard& shard, std::unique_lock<std::mutex>& lock, const Batch& own);
  Status deliverNow(std::vector<Ready> parts);

  // With the shard's lock held (locks nest shard -> sender, never the other way).
  void handOff(std::vector<Ready> parts);
  void wakeSender();
  void senderLoop();
  void cutDueShards(bool all);
  Clock::time_point nextWakeLocked() const;
  bool drained() const { return buffered_profiles_.load() == 0; }
  void handleResultLocked(const Status& s, Clock::time_point now);
  // Replaces the front request, refused for its data, by `parts` (bisect.h).
  void splitFrontLocked(std::vector<flat::Batch> parts, const Status& s);
  void dropLeftoversLocked(const char* why);
  void updateGauges();

  CreateSettings settings_;
  BatchProcessorConfig config_;
  ConsumerPtr next_;
  const uint64_t max_profiles_;  // buffered-profile cap, 0 = none
  std::vector<std::unique_ptr<Shard>> shards_;
  bool wait_for_flush_ = false;

  ClientMetadataPtr stamp_;
  std::atomic<uint64_t> buffered_profiles_{0};
  std::atomic<uint64_t> buffered_bytes_{0};
  std::atomic<bool> stopping_{false};
  std::atomic<int> waiting_{0};

  // The sender's state: cut requests in order, retry timing, shutdown.
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Ready> ready_;
  Clock::time_point retry_at_{};
  std::chrono::milliseconds backoff_;
  bool stopped_ = false;
  Clock::time_point deadline_{};
  std::thread sender_;

  // What updateGauges() last added to the gauges, which the instances of one id share.
  std::atomic<int64_t> reported_profiles_{0};
  std::atomic<int64_t> reported_bytes_{0};
  telemetry::Gauge* buffered_profiles_gauge_ = nullptr;
  telemetry::Gauge* buffered_bytes_gauge_ = nullptr;
  telemetry::Counter* retries_ = nullptr;
  telemetry::Counter* inboxed_parts_ = nullptr;
  telemetry::Counter* splits_ = nullptr;
  telemetry::LogThrottle drop_log_;
};

}  // namespace proflow::processors::batch
