#include "processors/batch/batch_processor.h"

#include <algorithm>
#include <limits>

#include "processors/batch/request_splitter.h"

namespace proflow::processors::batch {
namespace {

constexpr std::chrono::milliseconds kInitialBackoff{100};
constexpr std::chrono::milliseconds kMaxBackoff{5000};

}  // namespace

BatchProcessor::BatchProcessor(const CreateSettings& settings, const BatchProcessorConfig& config, ConsumerPtr next)
    : settings_(settings),
      config_(config),
      next_(std::move(next)),
      max_profiles_(config.maxBufferedProfiles()),
      backoff_(kInitialBackoff) {
  if (settings_.telemetry) {
    buffered_profiles_gauge_ =
        &settings_.telemetry->gauge("batch_buffered_profiles", "profiles held: pending plus waiting for a retry");
    buffered_bytes_gauge_ =
        &settings_.telemetry->gauge("batch_buffered_bytes", "bytes held: pending plus waiting for a retry");
    retries_ = &settings_.telemetry->counter("batch_retries_total", "flushes retried after a retryable refusal");
  }
}

BatchProcessor::~BatchProcessor() { shutdown(Clock::now()); }

Status BatchProcessor::start(Host&) {
  std::lock_guard lock(mu_);
  if (sender_.joinable() || stopping_) return Status::ok();
  sender_ = std::thread([this] { senderLoop(); });
  return Status::ok();
}

Status BatchProcessor::consume(Batch batch) {
  const BatchCounts counts = batch.counts();
  if (counts.profiles == 0) return Status::ok();  // nothing to deliver
  const uint64_t bytes = batch.byteSize();

  std::lock_guard lock(mu_);
  if (stopping_) return Status::unavailable("batch processor " + settings_.id.str() + " is shutting down");
  // An oversized batch is still taken when nothing is held, or it could never get through.
  const bool over_profiles = max_profiles_ > 0 && buffered_profiles_ + counts.profiles > max_profiles_;
  const bool over_bytes = buffered_bytes_ + bytes > config_.max_buffered_bytes.bytes;
  if (buffered_profiles_ > 0 && (over_profiles || over_bytes))
    return Status::exhausted("batch processor " + settings_.id.str() + " buffer is full (" +
                             std::to_string(buffered_profiles_) + " profiles, " + std::to_string(buffered_bytes_) +
                             " bytes held); retry later");

  if (!pending_) {
    pending_ = std::make_unique<Pending>();
    pending_->first_arrival = Clock::now();
  }
  pending_->merger.append(batch.request());
  pending_->profiles += counts.profiles;
  pending_->bytes += bytes;
  buffered_profiles_ += counts.profiles;
  buffered_bytes_ += bytes;

  const bool size_reached = config_.send_batch_size > 0 && pending_->profiles >= config_.send_batch_size;
  const bool max_reached = config_.send_batch_max_size > 0 && pending_->profiles >= config_.send_batch_max_size;
  if (size_reached || max_reached || config_.timeout.zero()) cutLocked();
  updateGaugesLocked();
  cv_.notify_all();  // a new pending request starts a timeout; a cut one is ready to send
  return Status::ok();
}

void BatchProcessor::cutLocked() {
  if (!pending_) return;
  std::unique_ptr<Pending> p = std::move(pending_);
  buffered_bytes_ -= p->bytes;
  for (auto& part : splitRequest(std::move(*p->request), config_.send_batch_max_size)) {
    Ready r;
    r.counts = countRequest(part);
    // Computed here, before anyone else can see the request: ByteSizeLong caches sizes in it.
    r.bytes = part.ByteSizeLong();
    r.batch = Batch(std::move(part));
    buffered_bytes_ += r.bytes;
    ready_.push_back(std::move(r));
  }
}

BatchProcessor::Clock::time_point BatchProcessor::nextWakeLocked() const {
  auto wake = Clock::time_point::max();
  if (!ready_.empty()) wake = std::min(wake, retry_at_);
  if (pending_) wake = std::min(wake, pending_->first_arrival + config_.timeout.value);
  if (stopping_) wake = std::min(wake, deadline_);
  return wake;
}

void BatchProcessor::senderLoop() {
  std::unique_lock lock(mu_);
  while (true) {
    const auto now = Clock::now();
    if (stopping_ && (drainedLocked() || now >= deadline_)) break;
    if (pending_ && (stopping_ || now >= pending_->first_arrival + config_.timeout.value)) {
      cutLocked();
      continue;
    }
    if (!ready_.empty() && now >= retry_at_) {
      Batch batch = ready_.front().batch;  // shares the request; only this thread pops ready_
      lock.unlock();
      Status s = next_->consume(std::move(batch));
      lock.lock();
      handleResultLocked(s, Clock::now());
      continue;
    }
    const auto wake = nextWakeLocked();
    if (wake == Clock::time_point::max()) cv_.wait(lock);
    else cv_.wait_until(lock, wake);
  }
  if (!drainedLocked()) dropLeftoversLocked("shutdown deadline passed before downstream took them");
}

void BatchProcessor::handleResultLocked(const Status& s, Clock::time_point now) {
  Ready& front = ready_.front();
  if (s.isOk() || !s.retryable()) {
    if (!s.isOk()) {
      // The downstream will never take this request: counted, logged, and let go.
      if (settings_.telemetry) settings_.telemetry->record(telemetry::Event::kDropped, front.counts);
      if (settings_.logger)
        settings_.logger->error("batch processor {}: dropped {} profiles, downstream refused them permanently: {}",
                                settings_.id.str(), front.counts.profiles, s.toString());
    }
    buffered_profiles_ -= front.counts.profiles;
    buffered_bytes_ -= front.bytes;
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
  updateGaugesLocked();
}

void BatchProcessor::dropLeftoversLocked(const char* why) {
  if (pending_) cutLocked();
  BatchCounts lost;
  for (const auto& r : ready_) {
    if (settings_.telemetry) settings_.telemetry->record(telemetry::Event::kDropped, r.counts);
    lost.profiles += r.counts.profiles;
    lost.samples += r.counts.samples;
  }
  if (settings_.logger)
    settings_.logger->error("batch processor {}: dropped {} profiles ({} samples): {}", settings_.id.str(),
                            lost.profiles, lost.samples, why);
  ready_.clear();
  buffered_profiles_ = 0;
  buffered_bytes_ = 0;
  updateGaugesLocked();
}

void BatchProcessor::updateGaugesLocked() {
  if (!settings_.telemetry) return;
  settings_.telemetry->queueSize().set(static_cast<int64_t>(ready_.size() + (pending_ ? 1 : 0)));
  buffered_profiles_gauge_->set(static_cast<int64_t>(buffered_profiles_));
  buffered_bytes_gauge_->set(static_cast<int64_t>(buffered_bytes_));
}

void BatchProcessor::shutdown(Deadline deadline) {
  {
    std::lock_guard lock(mu_);
    if (stopped_) return;
    stopped_ = true;
    stopping_ = true;
    deadline_ = deadline;
    // The last flush goes out at once; a pending retry waits no longer than its backoff.
  }
  cv_.notify_all();
  // The sender drains until the deadline. A downstream call already in flight is waited for: it
  // still references this processor's data.
  if (sender_.joinable()) sender_.join();
  else senderLoop();  // never started: drain on this thread
}

}  // namespace proflow::processors::batch
