#include "processors/memory_limiter/memory_guard.h"

namespace proflow::processors::memory_limiter {

const char* memoryStateName(MemoryState s) {
  switch (s) {
    case MemoryState::kNormal: return "normal";
    case MemoryState::kSoftLimited: return "soft-limited";
    case MemoryState::kHardLimited: return "hard-limited";
  }
  return "?";
}

MemoryGuard::MemoryGuard(Thresholds limits, std::chrono::nanoseconds min_trim_soft,
                         std::chrono::nanoseconds min_trim_hard, Hooks hooks)
    : limits_(limits), min_trim_soft_(min_trim_soft), min_trim_hard_(min_trim_hard), hooks_(std::move(hooks)) {}

MemoryState MemoryGuard::classify(uint64_t rss) const {
  if (rss >= limits_.hard) return MemoryState::kHardLimited;
  if (rss >= limits_.soft) return MemoryState::kSoftLimited;
  return MemoryState::kNormal;
}

bool MemoryGuard::trimDue(MemoryState s, Clock::time_point now) const {
  if (s == MemoryState::kNormal || !hooks_.trim) return false;
  if (!last_trim_) return true;
  // The Collector forces a GC at these intervals; trimming is this daemon's GC.
  auto min = s == MemoryState::kHardLimited ? min_trim_hard_ : min_trim_soft_;
  return now - *last_trim_ >= min;
}

std::optional<MemoryGuard::Transition> MemoryGuard::check(Clock::time_point now) {
  uint64_t rss = hooks_.rss();
  MemoryState next = classify(rss);
  if (trimDue(next, now)) {
    hooks_.trim();
    ++trims_;
    last_trim_ = now;
    rss = hooks_.rss();
    next = classify(rss);
  }
  last_rss_.store(rss, std::memory_order_relaxed);
  MemoryState prev = state_.exchange(next, std::memory_order_acq_rel);
  if (next == MemoryState::kNormal) last_trim_.reset();  // the next episode trims at once
  if (prev == next) return std::nullopt;
  return Transition{prev, next, rss};
}

}  // namespace proflow::processors::memory_limiter
