#include "core/exporterhelper/exporter_helper.h"

#include <spdlog/spdlog.h>

namespace proflow::exporterhelper {

using telemetry::Event;
using Clock = std::chrono::steady_clock;

ExporterHelper::ExporterHelper(const CreateSettings& settings, ExporterHelperConfig config,
                               std::unique_ptr<Sender> sender)
    : settings_(settings), config_(std::move(config)), sender_(std::move(sender)) {
  if (config_.sending_queue.enabled) settings_.telemetry->queueCapacity().set(config_.sending_queue.queue_size);
}

ExporterHelper::~ExporterHelper() { shutdown(Clock::now()); }

Status ExporterHelper::start(Host& host) {
  Status s = sender_->start(host);
  if (!s.isOk()) return s;
  std::lock_guard lock(mu_);
  started_ = true;
  if (config_.sending_queue.enabled)
    for (int i = 0; i < config_.sending_queue.num_consumers; ++i) workers_.emplace_back([this] { workerLoop(); });
  return Status::ok();
}

Status ExporterHelper::consume(Batch batch) {
  if (!config_.sending_queue.enabled) {
    {
      std::lock_guard lock(mu_);
      if (!started_ || stopping_) return Status::unavailable("exporter is not running");
    }
    return sendWithRetry(batch);
  }
  std::lock_guard lock(mu_);
  if (!started_ || stopping_) return Status::unavailable("exporter is not running");
  if (queue_.size() >= static_cast<size_t>(config_.sending_queue.queue_size)) {
    return Status::exhausted("sending queue is full (" + std::to_string(queue_.size()) + " batches); retry later")
        .withRetryAfter(std::chrono::seconds(1));
  }
  queue_.push_back(std::move(batch));
  settings_.telemetry->queueSize().set(static_cast<int64_t>(queue_.size()));
  cv_.notify_one();
  return Status::ok();
}

void ExporterHelper::workerLoop() {
  for (;;) {
    Batch batch;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping and drained
      if (stopping_ && Clock::now() >= deadline_) return;  // shutdown() counts what is left
      batch = std::move(queue_.front());
      queue_.pop_front();
      settings_.telemetry->queueSize().set(static_cast<int64_t>(queue_.size()));
    }
    Status s = sendWithRetry(batch);
    if (!s.isOk()) {
      settings_.telemetry->record(Event::kFailed, batch.counts());
      settings_.logger->error("dropping batch of {} profiles: {}", batch.counts().profiles, s.toString());
    }
  }
}

std::chrono::nanoseconds ExporterHelper::jittered(std::chrono::nanoseconds interval) {
  const double r = config_.retry_on_failure.randomization_factor;
  std::uniform_real_distribution<double> dist(1.0 - r, 1.0 + r);
  std::lock_guard lock(mu_);
  return std::chrono::nanoseconds(static_cast<int64_t>(static_cast<double>(interval.count()) * dist(rng_)));
}

bool ExporterHelper::sleepFor(std::chrono::nanoseconds d) {
  std::unique_lock lock(mu_);
  const auto until = Clock::now() + d;
  for (;;) {
    auto limit = stopping_ ? std::min(until, deadline_) : until;
    if (cv_.wait_until(lock, limit, [&] { return stopping_ && Clock::now() >= deadline_; })) return false;
    if (Clock::now() >= until) return true;
    if (stopping_ && Clock::now() >= deadline_) return false;
  }
}

Status ExporterHelper::sendWithRetry(const Batch& batch) {
  const auto& retry = config_.retry_on_failure;
  const auto first_attempt = Clock::now();
  std::chrono::nanoseconds interval = retry.initial_interval.value;
  for (int attempt = 1;; ++attempt) {
    Deadline attempt_deadline = Clock::now() + config_.timeout.value;
    {
      std::lock_guard lock(mu_);
      if (stopping_) attempt_deadline = std::min(attempt_deadline, deadline_);
    }
    Status s = sender_->push(batch, attempt_deadline);
    if (s.isOk()) {
      settings_.telemetry->record(Event::kSent, batch.counts());
      return s;
    }
    if (!s.retryable() || !retry.enabled) return s;

    auto wait = s.retryAfter().count() > 0 ? std::chrono::duration_cast<std::chrono::nanoseconds>(s.retryAfter())
                                           : jittered(interval);
    interval = std::min(std::chrono::duration_cast<std::chrono::nanoseconds>(interval * retry.multiplier),
                        retry.max_interval.value);
    if (!retry.max_elapsed_time.zero() && Clock::now() + wait - first_attempt > retry.max_elapsed_time.value)
      return Status(s.code(), "giving up after " + std::to_string(attempt) + " attempts: " + s.message());
    settings_.logger->warn("send failed (attempt {}), retrying in {} ms: {}", attempt,
                           std::chrono::duration_cast<std::chrono::milliseconds>(wait).count(), s.toString());
    if (!sleepFor(wait))
      return Status::unavailable("shutdown deadline reached while retrying: " + s.message());
  }
}

void ExporterHelper::shutdown(Deadline deadline) {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    deadline_ = deadline;
    cv_.notify_all();
  }
  for (auto& w : workers_)
    if (w.joinable()) w.join();
  workers_.clear();
  std::deque<Batch> left;
  {
    std::lock_guard lock(mu_);
    left.swap(queue_);
    settings_.telemetry->queueSize().set(0);
  }
  if (!left.empty()) {
    uint64_t profiles = 0;
    for (const auto& b : left) {
      auto c = b.counts();
      profiles += c.profiles;
      settings_.telemetry->record(Event::kDropped, c);
    }
    settings_.logger->error("shutdown deadline reached: {} queued batches ({} profiles) were not sent", left.size(),
                            profiles);
  }
  if (started_) sender_->shutdown();
}

size_t ExporterHelper::queued() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

}  // namespace proflow::exporterhelper
