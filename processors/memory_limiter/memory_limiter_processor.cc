#include "processors/memory_limiter/memory_limiter_processor.h"

#include <algorithm>

#include "core/runtime/thread_name.h"
#include "processors/memory_limiter/memory_source.h"

namespace proflow::processors::memory_limiter {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

MemoryReader withDefaults(MemoryReader r) {
  MemoryReader system = systemMemoryReader();
  if (!r.rss) r.rss = system.rss;
  if (!r.cgroup_limit) r.cgroup_limit = system.cgroup_limit;
  if (!r.total_memory) r.total_memory = system.total_memory;
  return r;
}

MemoryGuard::Hooks withDefaults(MemoryGuard::Hooks h, const MemoryReader& reader) {
  // A failed read after start-up keeps the last figure rather than reporting 0 (= no pressure).
  if (!h.rss) h.rss = [rss = reader.rss, last = uint64_t{0}]() mutable { return last = rss().value_or(last); };
  if (!h.trim) h.trim = [] { return releaseFreeMemory(); };
  return h;
}

// The limits of `c`; zero with `error` set when the total that limit_percentage needs is unreadable.
Thresholds thresholdsFor(const MemoryLimiterConfig& c, const MemoryReader& reader, std::string* error) {
  if (c.limit_percentage == 0) return computeThresholds(c, 0);
  std::optional<uint64_t> total = reader.cgroup_limit();
  if (!total) total = reader.total_memory();
  if (!total) {
    *error = "memory_limiter: limit_percentage needs the memory available to the process, but no cgroup memory "
             "limit is set (/sys/fs/cgroup/memory.max, memory/memory.limit_in_bytes) and MemTotal cannot be read "
             "from /proc/meminfo; use limit_mib";
    return {};
  }
  return computeThresholds(c, *total);
}

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(MemoryGuard::Clock::now().time_since_epoch()).count();
}

}  // namespace

MemoryLimiterProcessor::MemoryLimiterProcessor(const CreateSettings& settings, const MemoryLimiterConfig& config,
                                               ConsumerPtr next, MemoryGuard::Hooks hooks, MemoryReader reader)
    : logger_(settings.logger),
      next_(std::move(next)),
      interval_(config.check_interval.value),
      reader_(withDefaults(std::move(reader))),
      guard_(thresholdsFor(config, reader_, &startup_error_), config.min_trim_interval_when_soft_limited.value,
             config.min_trim_interval_when_hard_limited.value, withDefaults(std::move(hooks), reader_)) {
  if (auto* t = settings.telemetry) {
    state_gauge_ = &t->gauge("memory_limiter_state", "0 normal, 1 above the soft limit (refusing), 2 above the hard limit");
    rss_gauge_ = &t->gauge("memory_limiter_rss_bytes", "Process RSS at the last check");
    changes_ = &t->counter("memory_limiter_state_changes_total", "Transitions between normal, soft- and hard-limited");
    trims_ = &t->counter("memory_limiter_trims_total", "Times freed heap memory was handed back to the OS");
    t->gauge("memory_limiter_soft_limit_bytes", "Refusing above this").set(static_cast<int64_t>(limits().soft));
    t->gauge("memory_limiter_hard_limit_bytes", "Refusing and trimming above this").set(static_cast<int64_t>(limits().hard));
  }
}

MemoryLimiterProcessor::~MemoryLimiterProcessor() { shutdown(Deadline{}); }

Status MemoryLimiterProcessor::start(Host&) {
  if (!startup_error_.empty()) return Status::invalid(startup_error_);
  if (!reader_.rss())
    return Status::invalid("memory_limiter: cannot read the process RSS from /proc/self/statm, so no limit "
                           "could be enforced");
  if (logger_)
    logger_->info("memory_limiter: soft limit {:.1f} MiB, hard limit {:.1f} MiB, check every {} ms",
                  limits().soft / kMiB, limits().hard / kMiB,
                  std::chrono::duration_cast<std::chrono::milliseconds>(interval_).count());
  checkNow();
  std::lock_guard lock(mu_);
  if (!checker_.joinable() && !stopping_) checker_ = std::thread([this] { setThreadName("memory-limiter"); checkerLoop(); });
  return Status::ok();
}

void MemoryLimiterProcessor::shutdown(Deadline) {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (checker_.joinable() && checker_.get_id() != std::this_thread::get_id()) checker_.join();
}

void MemoryLimiterProcessor::checkerLoop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    cv_.wait_for(lock, interval_, [this] { return stopping_; });
    if (stopping_) break;
    lock.unlock();
    checkNow();
    lock.lock();
  }
}

void MemoryLimiterProcessor::checkNow() {
  std::lock_guard lock(check_mu_);
  checkLocked();
}

void MemoryLimiterProcessor::checkLocked() {
  auto t = guard_.check(MemoryGuard::Clock::now());
  last_check_ns_.store(nowNs(), std::memory_order_relaxed);
  if (rss_gauge_) rss_gauge_->set(static_cast<int64_t>(guard_.lastRss()));
  if (state_gauge_) state_gauge_->set(static_cast<int64_t>(guard_.state()));
  if (trims_ && guard_.trims() > trims_reported_) {
    trims_->add(guard_.trims() - trims_reported_);
    trims_reported_ = guard_.trims();
  }
  if (t) report(*t);
}

void MemoryLimiterProcessor::report(const MemoryGuard::Transition& t) {
  if (changes_) changes_->add();
  if (!logger_) return;
  // Logged once per change, not per refused batch.
  if (t.to == MemoryState::kNormal)
    logger_->info("memory_limiter: usage {:.1f} MiB is below the soft limit {:.1f} MiB again, accepting data",
                  t.rss / kMiB, limits().soft / kMiB);
  else
    logger_->warn("memory_limiter: usage {:.1f} MiB is above the {} limit {:.1f} MiB, refusing data ({} -> {})",
                  t.rss / kMiB, t.to == MemoryState::kHardLimited ? "hard" : "soft",
                  (t.to == MemoryState::kHardLimited ? limits().hard : limits().soft) / kMiB,
                  memoryStateName(t.from), memoryStateName(t.to));
}

Status MemoryLimiterProcessor::consume(Batch batch) {
  // A measurement older than the interval is renewed here: under a flood the checker thread may
  // not get the CPU in time. try_to_lock: a concurrent caller already measures.
  if (nowNs() - last_check_ns_.load(std::memory_order_relaxed) >= interval_.count()) {
    std::unique_lock lock(check_mu_, std::try_to_lock);
    if (lock.owns_lock()) checkLocked();
  }
  MemoryState s = guard_.state();
  if (s != MemoryState::kNormal) {
    auto retry = std::max<std::chrono::milliseconds>(
        std::chrono::duration_cast<std::chrono::milliseconds>(interval_), std::chrono::seconds(1));
    return Status::exhausted("memory_limiter: usage " + std::to_string(guard_.lastRss() >> 20) +
                             " MiB is above the soft limit " + std::to_string(limits().soft >> 20) +
                             " MiB; retry later")
        .withRetryAfter(retry);
  }
  return next_->consume(std::move(batch));
}

}  // namespace proflow::processors::memory_limiter
