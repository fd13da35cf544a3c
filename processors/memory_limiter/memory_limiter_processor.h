// The `memory_limiter` processor: while the process RSS is above the soft limit (limit - spike) it
// refuses new batches with RESOURCE_EXHAUSTED (retryable), so receivers answer 429 /
// RESOURCE_EXHAUSTED and clients retry later; above the hard limit it also gives freed heap memory
// back to the OS. It resumes once usage is below the soft limit again.
//
// A checker thread measures every check_interval (so the state recovers while no data arrives), and
// consume() re-measures when the last measurement is older than check_interval (so a flood cannot
// outrun a checker that the scheduler delays). Must be the first processor of a pipeline: data held
// upstream of it is not limited.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "core/component/factory.h"
#include "processors/memory_limiter/config.h"
#include "processors/memory_limiter/memory_guard.h"
#include "processors/memory_limiter/memory_source.h"

namespace proflow::processors::memory_limiter {

class MemoryLimiterProcessor final : public Processor {
 public:
  // `hooks` replaces RSS measurement and trimming, `reader` the figures read at start-up (tests);
  // empty members use /proc, the cgroup files and malloc_trim.
  MemoryLimiterProcessor(const CreateSettings& settings, const MemoryLimiterConfig& config, ConsumerPtr next,
                         MemoryGuard::Hooks hooks = {}, MemoryReader reader = {});
  ~MemoryLimiterProcessor() override;

  Capabilities capabilities() const override { return {.mutates_data = false}; }
  // Fails when the RSS, or the total a limit_percentage needs, cannot be read: a limiter that
  // measures nothing would never refuse anything.
  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;
  Status consume(Batch batch) override;

  MemoryState state() const { return guard_.state(); }
  const Thresholds& limits() const { return guard_.limits(); }
  // Measures now (what the checker thread does each interval).
  void checkNow();

 private:
  void checkerLoop();
  void checkLocked();  // check_mu_ held
  void report(const MemoryGuard::Transition& t);

  std::shared_ptr<spdlog::logger> logger_;
  ConsumerPtr next_;
  std::chrono::nanoseconds interval_;
  MemoryReader reader_;
  std::string startup_error_;  // set when the limits could not be computed
  MemoryGuard guard_;

  std::mutex check_mu_;  // one measurement at a time
  std::atomic<int64_t> last_check_ns_{0};

  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread checker_;

  telemetry::Gauge* state_gauge_ = nullptr;
  telemetry::Gauge* rss_gauge_ = nullptr;
  telemetry::Counter* changes_ = nullptr;
  telemetry::Counter* trims_ = nullptr;
  uint64_t trims_reported_ = 0;
};

}  // namespace proflow::processors::memory_limiter
