#include "core/status/flame_tap.h"

#include <algorithm>

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "core/runtime/thread_name.h"

namespace proflow::status {
namespace {

std::chrono::nanoseconds threadCpuTime() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
}

}  // namespace

FlameTap::FlameTap(Options options, telemetry::MetricsRegistry& metrics)
    : options_(options),
      batches_(&metrics.counter("proflow_status_flamegraph_batches_total",
                                "batches summed into the status page's flame graph")),
      skipped_batches_(&metrics.counter("proflow_status_flamegraph_skipped_batches_total",
                                        "batches the flame graph skipped: its queue held max_pending_bytes, its "
                                        "max_cpu share of this second was spent, or its pipelines edit them and "
                                        "the tap's share of those was taken (100 a second)")),
      dropped_samples_(&metrics.counter("proflow_status_flamegraph_dropped_samples_total",
                                        "samples the flame graph dropped: its memory reached max_bytes")),
      memory_(&metrics.gauge("proflow_status_flamegraph_memory_bytes",
                             "memory charged to the flame graph (stacks, names, values of 15 minutes)")),
      store_(options.store) {
  thread_ = std::thread([this] { setThreadName("flamegraph"); run(); });
}

FlameTap::~FlameTap() {
  {
    std::lock_guard lock(queue_mu_);
    stopping_ = true;
  }
  queue_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool FlameTap::holdEdited() {
  const Clock::rep now = Clock::now().time_since_epoch().count();
  Clock::rep next = next_edited_.load(std::memory_order_relaxed);
  if (options_.max_edited_per_second > 0 && now >= next) {
    const auto gap = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(1.0 / options_.max_edited_per_second));
    // One caller wins the slot; the others skip, as they would have a moment later.
    if (next_edited_.compare_exchange_strong(next, now + gap.count(), std::memory_order_relaxed)) return true;
  }
  skipped_batches_->add();
  return false;
}

void FlameTap::offer(std::shared_ptr<const flat::Batch> batch) {
  if (!batch || batch->profiles.empty()) return;
  if (Clock::now().time_since_epoch().count() < closed_until_.load(std::memory_order_relaxed)) {
    skipped_batches_->add();  // the caller's reference is the one released
    return;
  }
  const size_t bytes = batch->memoryBytes();
  {
    std::lock_guard lock(queue_mu_);
    if (stopping_ || pending_bytes_ + bytes > options_.max_pending_bytes) {
      skipped_batches_->add();
      return;
    }
    pending_bytes_ += bytes;
    queue_.push_back({std::move(batch), Clock::now(), bytes});
  }
  queue_cv_.notify_one();
}

void FlameTap::run() {
  // Below the pipeline's threads: under CPU contention the aggregation waits, its queue fills and
  // batches are skipped (counted) rather than the pipeline slowed.
  (void)setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
  for (;;) {
    Pending p;
    bool list_now = false;
    {
      std::unique_lock lock(queue_mu_);
      busy_ = false;
      idle_cv_.notify_all();
      // Wakes at least once per bucket so expired data is freed when nothing arrives, and within a
      // second while the listing is behind the store.
      queue_cv_.wait_for(lock, listing_stale_ ? std::chrono::seconds(kListingEvery) : options_.store.bucket,
                         [&] { return stopping_ || !queue_.empty() || listing_requested_; });
      if (stopping_) return;
      busy_ = true;
      if (!queue_.empty()) {
        p = std::move(queue_.front());
        queue_.pop_front();
      }
      if (queue_.empty() && listing_requested_) {
        list_now = true;
        listing_requested_ = false;
      }
    }
    if (p.batch) {
      aggregate(p);
    } else {
      std::lock_guard store_lock(store_mu_);
      if (store_.advance(Clock::now())) listing_stale_ = true;
      memory_->set(static_cast<int64_t>(store_.memoryBytes()));
    }
    if (listing_stale_ && (list_now || Clock::now() - listed_at_ >= kListingEvery)) publishListing();
  }
}

void FlameTap::aggregate(Pending& p) {
  const auto cpu_before = threadCpuTime();
  if (withinCpuBudget()) {
    {
      std::lock_guard store_lock(store_mu_);
      const uint64_t dropped = store_.droppedSamples();
      store_.add(*p.batch, p.at);
      dropped_samples_->add(store_.droppedSamples() - dropped);
      memory_->set(static_cast<int64_t>(store_.memoryBytes()));
    }
    listing_stale_ = true;
    batches_->add();
  } else {
    skipped_batches_->add();
  }
  p.batch.reset();  // released before the bytes are: the queue's bound is what is held
  budget_used_ += threadCpuTime() - cpu_before;
  closeWhileSpent();
  std::lock_guard lock(queue_mu_);
  pending_bytes_ -= p.bytes;
}

void FlameTap::publishListing() {
  const auto cpu_before = threadCpuTime();
  const auto now = Clock::now();
  // No store lock: this thread is the store's only writer, and tree queries only read it.
  auto listing = std::make_shared<SeriesListing>();
  listing->series = store_.series(now, kMaxListedSeries);
  listing->total = store_.seriesCount(now);
  {
    std::lock_guard lock(listing_mu_);
    listing_ = std::move(listing);
  }
  listing_stale_ = false;
  listed_at_ = now;
  budget_used_ += threadCpuTime() - cpu_before;
  closeWhileSpent();
}

// At least a nanosecond: a share too small for the clock is still a budget to spend and pay off.
std::chrono::nanoseconds FlameTap::budgetPerSecond() const {
  return std::max(std::chrono::nanoseconds(1), std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                   std::chrono::duration<double>(options_.max_cpu)));
}

void FlameTap::closeWhileSpent() {
  const std::chrono::nanoseconds per_second = budgetPerSecond();
  if (budget_used_ < per_second) return;
  // withinCpuBudget() pays off one share per second: the budget is back once the debt is below one.
  const int64_t seconds = 1 + (budget_used_ - per_second) / per_second;
  closed_until_.store((budget_second_ + std::chrono::seconds(seconds)).time_since_epoch().count(),
                      std::memory_order_relaxed);
}

bool FlameTap::withinCpuBudget() {
  const std::chrono::nanoseconds per_second = budgetPerSecond();
  // Each second that passed pays off one second's share; one large batch that overran is paid
  // off over the following seconds.
  const auto now = Clock::now();
  const int64_t seconds = std::chrono::duration_cast<std::chrono::seconds>(now - budget_second_).count();
  if (seconds > 0) {
    budget_second_ += std::chrono::seconds(seconds);
    budget_used_ = std::max(std::chrono::nanoseconds(0), budget_used_ - per_second * seconds);
  }
  return budget_used_ < per_second;
}

void FlameTap::flush() {
  std::unique_lock lock(queue_mu_);
  listing_requested_ = true;
  queue_cv_.notify_one();
  idle_cv_.wait(lock, [&] { return stopping_ || (queue_.empty() && !busy_ && !listing_requested_); });
}

SeriesListingPtr FlameTap::series() {
  std::lock_guard lock(listing_mu_);
  return listing_;
}

bool FlameTap::tree(const std::string& service, const std::string& type, std::chrono::seconds window,
                    std::chrono::seconds base, FlameTree* out) {
  std::lock_guard lock(store_mu_);
  return store_.tree(service, type, window, base, Clock::now(), out);
}

size_t FlameTap::memoryBytes() {
  std::lock_guard lock(store_mu_);
  return store_.memoryBytes();
}

}  // namespace proflow::status
