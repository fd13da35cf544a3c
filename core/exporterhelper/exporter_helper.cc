#include "core/exporterhelper/exporter_helper.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "core/runtime/thread_name.h"

namespace proflow::exporterhelper {

using telemetry::Event;
using Clock = std::chrono::steady_clock;

namespace {

// "otlp/gateway" -> "otlp_gateway": one subdirectory per exporter instance.
std::string storeName(const ComponentId& id) {
  std::string s = id.str();
  std::replace(s.begin(), s.end(), '/', '_');
  return s;
}

}  // namespace

ExporterHelper::ExporterHelper(const CreateSettings& settings, ExporterHelperConfig config,
                               std::unique_ptr<Sender> sender)
    : settings_(settings),
      config_(std::move(config)),
      sender_(std::move(sender)),
      retries_(settings_.telemetry->counter("send_retries_total", "failed send attempts retried after a back-off")) {
  if (config_.sending_queue.enabled) settings_.telemetry->queueCapacity().set(config_.sending_queue.queue_size);
  if (config_.sending_queue.enabled && !config_.sending_queue.directory.empty()) {
    store_ = std::make_unique<PersistentStore>(config_.sending_queue.directory + "/" + storeName(settings_.id),
                                               config_.sending_queue.fsync);
    corrupt_batches_ = &settings_.telemetry->counter(
        "queue_corrupt_batches_total", "persisted batches that failed their checks when read back, moved aside");
  }
}

ExporterHelper::~ExporterHelper() { shutdown(Clock::now()); }

Status ExporterHelper::start(Host& host) {
  std::vector<uint64_t> leftover;
  if (store_) {
    if (Status s = store_->open(&leftover); !s.isOk()) return s;
  }
  Status s = sender_->start(host);
  if (!s.isOk()) return s;
  std::lock_guard lock(mu_);
  for (uint64_t seq : leftover) queue_.push_back(Entry{std::nullopt, seq});
  if (!leftover.empty()) {
    settings_.telemetry->queueSize().set(static_cast<int64_t>(queue_.size()));
    settings_.logger->info("resending {} batches a previous run left in {}", leftover.size(), store_->directory());
  }
  started_ = true;
  if (config_.sending_queue.enabled) {
    running_workers_ = config_.sending_queue.num_consumers;
    for (int i = 0; i < config_.sending_queue.num_consumers; ++i)
      workers_.emplace_back([this, i] {
        setThreadName("exp-", settings_.id.str(), i);
        workerLoop();
        std::lock_guard lock(mu_);
        --running_workers_;
        stop_cv_.notify_all();
      });
  }
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
  if (store_) return enqueuePersistent(std::move(batch));
  std::lock_guard lock(mu_);
  if (Status s = refusalLocked(); !s.isOk()) return s;
  pushLocked(Entry{std::move(batch), 0});
  return Status::ok();
}

Status ExporterHelper::refusalLocked() const {
  if (!started_ || stopping_) return Status::unavailable("exporter is not running");
  if (queue_.size() >= static_cast<size_t>(config_.sending_queue.queue_size)) {
    return Status::exhausted("sending queue is full (" + std::to_string(queue_.size()) + " batches); retry later")
        .withRetryAfter(std::chrono::seconds(1));
  }
  return Status::ok();
}

void ExporterHelper::pushLocked(Entry entry) {
  queue_.push_back(std::move(entry));
  settings_.telemetry->queueSize().set(static_cast<int64_t>(queue_.size()));
  cv_.notify_one();
}

Status ExporterHelper::enqueuePersistent(Batch batch) {
  {
    std::lock_guard lock(mu_);
    if (Status s = refusalLocked(); !s.isOk()) return s;
  }
  // Written outside any lock, so concurrent callers serialize and write (and fsync) in parallel and
  // disk latency never holds up the senders; acknowledged only once written.
  uint64_t seq = 0;
  if (Status s = store_->append(batch, &seq); !s.isOk()) {
    settings_.logger->error("cannot persist a batch, refusing it: {}", s.toString());
    return s;  // retryable: the client sends it again
  }
  std::lock_guard lock(mu_);
  pushLocked(Entry{std::move(batch), seq});
  return Status::ok();
}

void ExporterHelper::workerLoop() {
  for (;;) {
    Entry entry;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping and drained
      if (stopping_ && Clock::now() >= deadline_) return;  // shutdown() counts what is left
      entry = std::move(queue_.front());
      queue_.pop_front();
      settings_.telemetry->queueSize().set(static_cast<int64_t>(queue_.size()));
    }
    if (!entry.batch) {  // left on disk by a previous run: read it now
      entry.batch.emplace();
      if (Status s = store_->load(entry.seq, &*entry.batch); !s.isOk()) {
        settings_.logger->error("{}", s.toString());  // moved aside or unreadable: not sent in this run
        if (s.code() == StatusCode::kInvalidArgument) corrupt_batches_->add();
        continue;
      }
    }
    const Status result = sendWithRetry(*entry.batch);
    settle(entry, *entry.batch, result);
    if (!result.isOk() && result.retryable()) {
      // Shutdown left no time to retry a failing peer: what is still queued is left to shutdown()
      // (counted as dropped, or kept on disk), as when the deadline itself is reached.
      std::lock_guard lock(mu_);
      if (stopping_) return;
    }
  }
}

void ExporterHelper::settle(const Entry& entry, const Batch& batch, const Status& result) {
  if (!result.isOk() && entry.seq != 0) {
    std::lock_guard lock(mu_);
    // Cut short by shutdown (a retry due past its deadline): the batch stays on disk for the next start.
    if (stopping_ && result.retryable()) {
      settings_.logger->warn("shutting down: batch of {} profiles kept in {} for the next start",
                             batch.counts().profiles, store_->directory());
      return;
    }
  }
  if (!result.isOk()) {
    settings_.telemetry->record(Event::kFailed, batch.counts());
    settings_.logger->error("dropping batch of {} profiles: {}", batch.counts().profiles, result.toString());
  }
  if (entry.seq != 0) store_->remove(entry.seq);
}

std::chrono::nanoseconds ExporterHelper::jittered(std::chrono::nanoseconds interval) {
  const double r = config_.retry_on_failure.randomization_factor;
  std::uniform_real_distribution<double> dist(1.0 - r, 1.0 + r);
  std::lock_guard lock(mu_);
  return std::chrono::nanoseconds(static_cast<int64_t>(static_cast<double>(interval.count()) * dist(rng_)));
}

bool ExporterHelper::retryMissesShutdownDeadline(std::chrono::nanoseconds wait) const {
  std::lock_guard lock(mu_);
  return stopping_ && Clock::now() + wait >= deadline_;
}

bool ExporterHelper::sleepFor(std::chrono::nanoseconds d) {
  std::unique_lock lock(mu_);
  const auto until = Clock::now() + d;
  retries_.add();  // under mu_: whoever reads it and then calls shutdown() finds this wait started
  // Wakes at `until` or when shutdown() sets the deadline; a retry due after the deadline is given
  // up at once, since waiting for it would only delay shutdown.
  for (;;) {
    const auto now = Clock::now();
    if (now >= until) return true;
    if (stopping_ && until >= deadline_) return false;
    const bool was_stopping = stopping_;
    stop_cv_.wait_until(lock, until, [&] { return stopping_ != was_stopping; });
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
    auto cut_short = [&] {
      return Status::unavailable("shutting down: the next retry would come after the shutdown deadline: " +
                                 s.message());
    };
    if (retryMissesShutdownDeadline(wait)) return cut_short();
    settings_.logger->warn("send failed (attempt {}), retrying in {} ms: {}", attempt,
                           std::chrono::duration_cast<std::chrono::milliseconds>(wait).count(), s.toString());
    if (!sleepFor(wait)) return cut_short();
  }
}

void ExporterHelper::shutdown(Deadline deadline) {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    deadline_ = deadline;
    cv_.notify_all();
    stop_cv_.notify_all();
  }
  {
    // Workers drain the queue until the deadline; an attempt still in flight then is cancelled
    // rather than left to run out its own timeout.
    std::unique_lock lock(mu_);
    if (!stop_cv_.wait_until(lock, deadline, [&] { return running_workers_ == 0; })) {
      lock.unlock();
      sender_->cancel();
    }
  }
  for (auto& w : workers_)
    if (w.joinable()) w.join();
  workers_.clear();
  std::deque<Entry> left;
  {
    std::lock_guard lock(mu_);
    left.swap(queue_);
    settings_.telemetry->queueSize().set(0);
  }
  if (!left.empty() && store_) {
    settings_.logger->warn("shutdown deadline reached: {} queued batches kept in {} for the next start", left.size(),
                           store_->directory());
  } else if (!left.empty()) {
    uint64_t profiles = 0;
    for (const auto& e : left) {
      auto c = e.batch->counts();
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
