// The memory limiter's decision, free of threads and files so tests can drive it: measure, compare
// with the soft and hard limits, give freed memory back when above them, and report state changes.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

#include "processors/memory_limiter/config.h"

namespace proflow::processors::memory_limiter {

enum class MemoryState { kNormal = 0, kSoftLimited = 1, kHardLimited = 2 };
const char* memoryStateName(MemoryState s);

class MemoryGuard {
 public:
  using Clock = std::chrono::steady_clock;
  struct Hooks {
    std::function<uint64_t()> rss;  // current usage in bytes
    std::function<bool()> trim;     // give freed memory back; true when something was released
  };
  struct Transition {
    MemoryState from;
    MemoryState to;
    uint64_t rss;
  };

  MemoryGuard(Thresholds limits, std::chrono::nanoseconds min_trim_soft, std::chrono::nanoseconds min_trim_hard,
              Hooks hooks);

  // Measures and updates the state (not thread-safe: one caller at a time). Returns the change, if any.
  std::optional<Transition> check(Clock::time_point now);

  MemoryState state() const { return state_.load(std::memory_order_acquire); }
  uint64_t lastRss() const { return last_rss_.load(std::memory_order_relaxed); }
  uint64_t trims() const { return trims_; }
  const Thresholds& limits() const { return limits_; }

 private:
  MemoryState classify(uint64_t rss) const;
  bool trimDue(MemoryState s, Clock::time_point now) const;

  Thresholds limits_;
  std::chrono::nanoseconds min_trim_soft_;
  std::chrono::nanoseconds min_trim_hard_;
  Hooks hooks_;
  std::atomic<MemoryState> state_{MemoryState::kNormal};
  std::atomic<uint64_t> last_rss_{0};
  std::optional<Clock::time_point> last_trim_;
  uint64_t trims_ = 0;
};

}  // namespace proflow::processors::memory_limiter
