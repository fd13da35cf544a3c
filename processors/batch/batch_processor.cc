#include "processors/batch/batch_processor.h"

#include <algorithm>

#include "core/component/durable_acceptance.h"
#include "core/flat/flat_split.h"
#include "core/runtime/thread_name.h"
#include "processors/batch/bisect.h"
#include "processors/batch/shard_router.h"

namespace proflow::processors::batch {
namespace {

constexpr std::chrono::milliseconds kInitialBackoff{100};
constexpr std::chrono::milliseconds kMaxBackoff{5000};

int64_t ticks(std::chrono::steady_clock::time_point t) { return t.time_since_epoch().count(); }

// Whether merging `incoming` into `pending` keeps the result addressable: a flat batch's arena and
// columns use 32-bit offsets, and every entry takes at least a byte of its memory, so two batches
// holding less than 4 GiB together cannot pass them. max_buffered_bytes (at most 2 GiB) keeps
// merges below this; the check makes a merge that would pass it start a new request (or be
// refused, retryable, when its caller waits for the flush) instead of overflowing.
bool addressable(const flat::Batch& pending, const Batch& incoming) {
  return pending.memoryBytes() + incoming.byteSize() <= UINT32_MAX;
}

}  // namespace

BatchProcessor::BatchProcessor(const CreateSettings& settings, const BatchProcessorConfig& config, ConsumerPtr next)
    : settings_(settings),
      config_(config),
      next_(std::move(next)),
      max_profiles_(config.maxBufferedProfiles()),
      backoff_(kInitialBackoff) {
  const size_t n = std::max<size_t>(1, config_.shardCount());
  for (size_t i = 0; i < n; ++i) shards_.push_back(std::make_unique<Shard>());
  if (settings_.telemetry) {
    buffered_profiles_gauge_ =
        &settings_.telemetry->gauge("batch_buffered_profiles", "profiles held: pending plus waiting for a retry");
    buffered_bytes_gauge_ =
        &settings_.telemetry->gauge("batch_buffered_bytes", "bytes held: pending plus waiting for a retry");
    retries_ = &settings_.telemetry->counter("batch_retries_total", "flushes retried after a retryable refusal");
    inboxed_parts_ = &settings_.telemetry->counter(
        "batch_inboxed_parts_total", "parts left in a busy shard's inbox and merged by the caller holding the shard");
    splits_ = &settings_.telemetry->counter(
        "batch_refusal_splits_total", "requests refused for their data and cut in two to find the profiles refused");
  }
}

BatchProcessor::~BatchProcessor() { shutdown(Clock::now()); }

Status BatchProcessor::start(Host&) {
  std::lock_guard lock(mu_);
  if (sender_.joinable() || stopped_) return Status::ok();
  wait_for_flush_ = config_.wait_for_flush == "true" ||
                    (config_.wait_for_flush == "auto" && next_ && acceptsDurably(*next_));
  if (wait_for_flush_ && settings_.logger)
    settings_.logger->info("batch processor {}: acknowledging data only once the downstream took it{} ({} shards)",
                           settings_.id.str(),
                           config_.wait_for_flush == "auto" ? " (a downstream exporter has a persistent queue)" : "",
                           shards_.size());
  if (!wait_for_flush_) sender_ = std::thread([this] { setThreadName("batch-", settings_.id.str()); senderLoop(); });
  return Status::ok();
}

Status BatchProcessor::consume(Batch batch) {
  const BatchCounts counts = batch.counts();
  if (counts.profiles == 0) return Status::ok();  // nothing to deliver
  if (stopping_) return Status::unavailable("batch processor " + settings_.id.str() + " is shutting down");
  const uint64_t bytes = batch.byteSize();
  // The whole batch is taken or refused: a refusal never leaves part of it behind.
  if (Status s = reserve(counts, bytes); !s.isOk()) return s;
  std::vector<ShardPart> parts = splitByShard(std::move(batch), shards_.size());
  if (parts.size() == 1) return consumePart(*shards_[parts[0].shard], std::move(parts[0].batch), counts, bytes);
  std::vector<uint64_t> part_bytes;
  for (const auto& part : parts) part_bytes.push_back(part.batch.byteSize());
  uint64_t total = 0;
  for (uint64_t b : part_bytes) total += b;
  buffered_bytes_.fetch_add(total);  // held as its parts from now on
  buffered_bytes_.fetch_sub(bytes);
  // Waiting callers get the first refusal; the parts already taken may then arrive twice when the
  // client resends, which OTLP allows.
  Status result;
  for (size_t i = 0; i < parts.size(); ++i) {
    const BatchCounts part_counts = parts[i].batch.counts();
    Status s = consumePart(*shards_[parts[i].shard], std::move(parts[i].batch), part_counts, part_bytes[i]);
    if (result.isOk()) result = s;
  }
  return result;
}

Status BatchProcessor::reserve(const BatchCounts& counts, uint64_t bytes) {
  const uint64_t held_profiles = buffered_profiles_.fetch_add(counts.profiles);
  const uint64_t held_bytes = buffered_bytes_.fetch_add(bytes);
  const bool over_profiles = max_profiles_ > 0 && held_profiles + counts.profiles > max_profiles_;
  const bool over_bytes = held_bytes + bytes > config_.max_buffered_bytes.bytes;
  // An oversized batch is still taken when nothing is held, or it could never get through.
  if (held_profiles == 0 || !(over_profiles || over_bytes)) return Status::ok();
  release(counts.profiles, bytes);
  return Status::exhausted("batch processor " + settings_.id.str() + " buffer is full (" +
                           std::to_string(held_profiles) + " profiles, " + std::to_string(held_bytes) +
                           " bytes held); retry later");
}

void BatchProcessor::release(uint64_t profiles, uint64_t bytes) {
  buffered_profiles_.fetch_sub(profiles);
  buffered_bytes_.fetch_sub(bytes);
}

Status BatchProcessor::consumePart(Shard& shard, Batch batch, const BatchCounts& counts, uint64_t bytes) {
  auto refuse = [&] {
    release(counts.profiles, bytes);
    wakeSender();  // a draining sender waits for the held count to reach 0
    return Status::unavailable("batch processor " + settings_.id.str() + " is shutting down");
  };
  if (wait_for_flush_) {
    std::unique_lock lock(shard.mu);
    if (stopping_) {  // checked under the shard's lock: shutdown() passes every shard's lock after setting it
      lock.unlock();
      return refuse();
    }
    if (shard.pending && !addressable(shard.pending->merged, batch)) {
      lock.unlock();
      release(counts.profiles, bytes);
      return Status::exhausted("batch processor " + settings_.id.str() +
                               ": the pending request cannot take this batch without passing the 32-bit offsets "
                               "of a batch; retry after its flush");
    }
    mergeLocked(shard, batch, counts.profiles, bytes);
    return flushAndWait(shard, lock, batch);
  }
  Inboxed part{std::move(batch), counts.profiles, bytes};
  std::unique_lock lock(shard.mu, std::try_to_lock);
  if (!lock.owns_lock()) {
    bool queued = false;
    {
      std::lock_guard inbox_lock(shard.inbox_mu);  // shutdown() passes it after setting stopping_
      if (!stopping_) {
        shard.inbox.push_back(std::move(part));
        shard.inboxed.store(shard.inbox.size());
        queued = true;
      }
    }
    if (!queued) return refuse();
    if (inboxed_parts_) inboxed_parts_->add();
    combineWhileFree(shard);
    updateGauges();
    return Status::ok();
  }
  if (stopping_) {
    lock.unlock();
    return refuse();
  }
  combineLocked(shard, std::move(part));
  lock.unlock();
  combineWhileFree(shard);
  updateGauges();
  return Status::ok();
}

void BatchProcessor::combineLocked(Shard& shard, std::optional<Inboxed> own) {
  bool started_pending = false;
  for (;;) {
    std::vector<Inboxed> parts;
    if (shard.inboxed.load() > 0) {  // the inbox's lock only when it holds something
      std::lock_guard inbox_lock(shard.inbox_mu);
      parts.swap(shard.inbox);
      shard.inboxed.store(0);
    }
    if (own) parts.push_back(std::move(*own));  // after the parts that were waiting
    own.reset();
    if (parts.empty()) break;
    for (auto& p : parts) {
      // A part that would take the pending request past a batch's 32-bit offsets starts the next one.
      if (shard.pending && !addressable(shard.pending->merged, p.batch)) handOff(cutLocked(shard));
      started_pending = started_pending || !shard.pending;
      mergeLocked(shard, p.batch, p.profiles, p.bytes);
      // Handed to the sender under the shard's lock, so one shard's requests reach it in cut order.
      if (flushDueLocked(shard)) handOff(cutLocked(shard));
    }
  }
  // A new pending request starts a timeout the sender must wake up for.
  if (started_pending && shard.pending) wakeSender();
}

void BatchProcessor::combineWhileFree(Shard& shard) {
  // A caller that queued a part after this thread's last look at the inbox, and found the lock
  // held, left it to this thread: look again once the lock is let go.
  while (shard.inboxed.load() > 0) {
    std::unique_lock lock(shard.mu, std::try_to_lock);
    if (!lock.owns_lock()) return;  // the holder merges the inbox before it lets go
    combineLocked(shard);
  }
}

void BatchProcessor::wakeSender() {
  { std::lock_guard sender_lock(mu_); }
  cv_.notify_all();
}

void BatchProcessor::mergeLocked(Shard& shard, const Batch& batch, uint64_t profiles, uint64_t bytes) {
  if (!shard.pending) {
    shard.pending = std::make_unique<Pending>();
    shard.pending->first_arrival = Clock::now();
    if (!wait_for_flush_) shard.due = ticks(shard.pending->first_arrival + config_.timeout.value);
  }
  shard.pending->merger.append(batch.data());
  ++shard.pending->outcome->callers;
  shard.pending->profiles += profiles;
  shard.pending->bytes += bytes;
}

bool BatchProcessor::flushDueLocked(const Shard& shard) const {
  const uint64_t n = shard.pending->profiles;
  return (config_.send_batch_size > 0 && n >= config_.send_batch_size) ||
         (config_.send_batch_max_size > 0 && n >= config_.send_batch_max_size) || config_.timeout.zero();
}

std::vector<BatchProcessor::Ready> BatchProcessor::cutLocked(Shard& shard) {
  std::vector<Ready> out;
  if (!shard.pending) return out;
  std::unique_ptr<Pending> p = std::move(shard.pending);
  shard.due = kNever;
  uint64_t bytes = 0;
  for (auto& part : flat::splitByProfiles(std::move(p->merged), config_.send_batch_max_size)) {
    Ready r;
    const flat::Counts c = part.counts();
    r.counts = {c.resources, c.profiles, c.samples};
    r.bytes = part.memoryBytes();
    r.batch = Batch(std::move(part));
    r.batch.setMetadata(stamp_);
    bytes += r.bytes;
    out.push_back(std::move(r));
  }
  // From the incoming sizes to the merged sizes (smaller: shared dictionary entries appear once).
  buffered_bytes_.fetch_add(bytes);
  buffered_bytes_.fetch_sub(p->bytes);
  return out;
}

Status BatchProcessor::flushAndWait(Shard& shard, std::unique_lock<std::mutex>& lock, const Batch& own) {
  const std::shared_ptr<FlushOutcome> outcome = shard.pending->outcome;
  ++waiting_;
  while (!outcome->done) {
    if (shard.flushing) {
      shard.flushed.wait(lock);
      continue;
    }
    // No flush of this shard in flight: this caller flushes everything pending, its own data and
    // whatever merged while the previous flush ran. Cuts happen only here, and a flush ends (done)
    // before the next one starts, so the pending request is the one `outcome` belongs to.
    shard.flushing = true;
    std::vector<Ready> parts = cutLocked(shard);
    lock.unlock();
    Status s = deliverNow(std::move(parts));
    lock.lock();
    shard.flushing = false;
    outcome->done = true;
    outcome->status = s;
    shard.flushed.notify_all();
  }
  const bool shared = outcome->callers > 1;
  lock.unlock();
  --waiting_;
  updateGauges();
  // Refused for data that may be another caller's: this caller's own data goes alone, so its
  // client gets the answer to its own data (others' data may then arrive twice, as OTLP allows).
  if (shared && refusedForData(outcome->status)) {
    Batch alone = own;
    alone.setMetadata(stamp_);  // as every request this processor sends
    return next_->consume(std::move(alone));
  }
  return outcome->status;
}

Status BatchProcessor::deliverNow(std::vector<Ready> parts) {
  Status result;
  for (auto& part : parts) {
    if (result.isOk()) result = next_->consume(part.batch);
    release(part.counts.profiles, part.bytes);
  }
  return result;
}

void BatchProcessor::handOff(std::vector<Ready> parts) {
  if (parts.empty()) return;
  {
    std::lock_guard lock(mu_);
    for (auto& r : parts) ready_.push_back(std::move(r));
    if (settings_.telemetry) settings_.telemetry->queueSize().set(static_cast<int64_t>(ready_.size()));
  }
  cv_.notify_all();
}

void BatchProcessor::cutDueShards(bool all) {
  const auto now = Clock::now();
  for (auto& shard : shards_) {
    const int64_t due = shard->due.load();
    if ((due == kNever && shard->inboxed.load() == 0) || (!all && due > ticks(now))) continue;
    {
      std::lock_guard lock(shard->mu);
      combineLocked(*shard);
      // Re-checked under the lock: a size flush may have cut it, and a new request started since.
      if (shard->pending && (all || shard->pending->first_arrival + config_.timeout.value <= now))
        handOff(cutLocked(*shard));
    }
    combineWhileFree(*shard);
  }
}

BatchProcessor::Clock::time_point BatchProcessor::nextWakeLocked() const {
  auto wake = Clock::time_point::max();
  if (!ready_.empty()) wake = std::min(wake, retry_at_);
  for (const auto& shard : shards_) {
    const int64_t due = shard->due.load();
    if (due != kNever) wake = std::min(wake, Clock::time_point(Clock::duration(due)));
  }
  if (stopping_) wake = std::min(wake, deadline_);
  return wake;
}

void BatchProcessor::senderLoop() {
  std::unique_lock lock(mu_);
  while (true) {
    const auto now = Clock::now();
    if (stopping_ && (drained() || now >= deadline_)) break;
    const bool cut_all = stopping_.load();  // the last flush goes out at once
    bool any_due = false;
    for (const auto& shard : shards_) {
      const int64_t due = shard->due.load();
      any_due = any_due || (due != kNever && (cut_all || due <= ticks(now))) ||
                (cut_all && shard->inboxed.load() > 0);
    }
    if (any_due) {
      lock.unlock();  // shards are locked before the sender's lock, never while holding it
      cutDueShards(cut_all);
      lock.lock();
      continue;
    }
    if (!ready_.empty() && now >= retry_at_) {
      Batch batch = ready_.front().batch;  // shares the request; only this thread pops ready_
      lock.unlock();
      Status s = next_->consume(batch);
      // Cut outside the lock, so callers keep handing requests over meanwhile.
      std::vector<flat::Batch> parts = refusedForData(s) ? halves(batch.data()) : std::vector<flat::Batch>();
      batch = Batch();
      lock.lock();
      if (parts.empty()) handleResultLocked(s, Clock::now());
      else splitFrontLocked(std::move(parts), s);
      continue;
    }
    const auto wake = nextWakeLocked();
    if (wake == Clock::time_point::max()) cv_.wait(lock);
    else cv_.wait_until(lock, wake);
  }
  if (!drained()) {
    lock.unlock();
    cutDueShards(true);
    lock.lock();
    dropLeftoversLocked("shutdown deadline passed before downstream took them");
  }
}

void BatchProcessor::handleResultLocked(const Status& s, Clock::time_point now) {
  Ready& front = ready_.front();
  if (s.isOk() || !s.retryable()) {
    if (!s.isOk()) {
      // The downstream will never take this request: counted, logged, and let go.
      if (settings_.telemetry) settings_.telemetry->record(telemetry::Event::kDropped, front.counts);
      // Cutting refused requests can drop many single profiles of one bad sender: one line per interval.
      if (settings_.logger)
        drop_log_.log(*settings_.logger, spdlog::level::err, "refused",
                      "batch processor " + settings_.id.str() + ": dropped " + std::to_string(front.counts.profiles) +
                          " profiles, downstream refused them permanently: " + s.toString());
    }
    release(front.counts.profiles, front.bytes);
    ready_.pop_front();
    backoff_ = kInitialBackoff;
    retry_at_ = {};
  } else {
    // Keep the request and try again later; the cap on buffered data turns a long outage into
    // backpressure instead of unbounded memory.
    const auto wait = s.retryAfter().count() > 0 ? s.retryAfter() : backoff_;
    retry_at_ = now + wait;
    backoff_ = std::min(backoff_ * 2, kMaxBackoff);
    if (retries_) retries_->add();
    if (settings_.logger)
      settings_.logger->warn("batch processor {}: downstream refused {} profiles ({}), retrying in {} ms",
                             settings_.id.str(), front.counts.profiles, s.toString(), wait.count());
  }
  if (settings_.telemetry) settings_.telemetry->queueSize().set(static_cast<int64_t>(ready_.size()));
  updateGauges();
}

void BatchProcessor::splitFrontLocked(std::vector<flat::Batch> parts, const Status& s) {
  const Ready front = std::move(ready_.front());
  ready_.pop_front();
  uint64_t bytes = 0;
  // In the front, in order: the halves go out next, before requests cut after this one.
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    Ready r;
    const flat::Counts c = it->counts();
    r.counts = {c.resources, c.profiles, c.samples};
    r.bytes = it->memoryBytes();
    r.batch = Batch(std::move(*it));
    r.batch.setMetadata(stamp_);
    bytes += r.bytes;
    ready_.push_front(std::move(r));
  }
  buffered_bytes_.fetch_add(bytes);
  buffered_bytes_.fetch_sub(front.bytes);
  if (splits_) splits_->add();
  if (settings_.logger)
    settings_.logger->debug("batch processor {}: downstream refused {} profiles for their data ({}); sending them in two parts",
                            settings_.id.str(), front.counts.profiles, s.toString());
  if (settings_.telemetry) settings_.telemetry->queueSize().set(static_cast<int64_t>(ready_.size()));
  updateGauges();
}

void BatchProcessor::dropLeftoversLocked(const char* why) {
  BatchCounts lost;
  for (const auto& r : ready_) {
    if (settings_.telemetry) settings_.telemetry->record(telemetry::Event::kDropped, r.counts);
    lost.profiles += r.counts.profiles;
    lost.samples += r.counts.samples;
    release(r.counts.profiles, r.bytes);
  }
  if (settings_.logger)
    settings_.logger->error("batch processor {}: dropped {} profiles ({} samples): {}", settings_.id.str(),
                            lost.profiles, lost.samples, why);
  ready_.clear();
  if (settings_.telemetry) settings_.telemetry->queueSize().set(0);
  updateGauges();
}

void BatchProcessor::updateGauges() {
  if (!settings_.telemetry) return;
  // Deltas, not values: the instances of one processor id (one per metadata_keys value) share the
  // gauges. However updates interleave, the deltas sum to what is held now.
  const auto profiles = static_cast<int64_t>(buffered_profiles_.load());
  const auto bytes = static_cast<int64_t>(buffered_bytes_.load());
  buffered_profiles_gauge_->add(profiles - reported_profiles_.exchange(profiles));
  buffered_bytes_gauge_->add(bytes - reported_bytes_.exchange(bytes));
}

void BatchProcessor::shutdown(Deadline deadline) {
  {
    std::lock_guard lock(mu_);
    if (stopped_) return;
    stopped_ = true;
    deadline_ = deadline;
    stopping_ = true;
  }
  // After this, no consume() adds to a shard (each checks stopping_ under its shard's lock, or under
  // its inbox's lock), and what an inbox held is merged.
  for (auto& shard : shards_) {
    std::lock_guard barrier(shard->mu);
    { std::lock_guard inbox_barrier(shard->inbox_mu); }
    combineLocked(*shard);
  }
  cv_.notify_all();
  // The sender drains until the deadline. A downstream call already in flight is waited for: it
  // still references this processor's data. Waiting callers flush their own data.
  if (sender_.joinable()) sender_.join();
  else if (!wait_for_flush_) senderLoop();  // never started: drain on this thread
}

}  // namespace proflow::processors::batch
