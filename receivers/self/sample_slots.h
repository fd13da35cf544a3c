// A fixed set of sample slots written by signal handlers on any thread and drained by one reader:
// lock-free, allocation-free on the writer side (async-signal-safe), a sample that finds no free
// slot is counted as lost instead of waiting.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "receivers/self/sampler.h"

namespace proflow::receivers::self {

class SampleSlots {
 public:
  SampleSlots(size_t slots, size_t max_depth);

  // Writer: a free slot (its frame array is frames(slot)), or -1 when the slots tried were taken
  // (the sample is then counted lost).
  int64_t claim() noexcept;
  uint64_t* frames(size_t slot) noexcept { return frames_.get() + slot * depth_; }
  void publish(size_t slot, int32_t tid, uint64_t time_ns, int64_t period_ns, size_t depth) noexcept;

  // Reader: moves every published sample into `out` (in no particular order) and frees its slot.
  void drain(SampleSet* out);

  size_t maxDepth() const { return depth_; }

 private:
  enum : uint32_t { kFree, kWriting, kReady };
  struct Slot {
    std::atomic<uint32_t> state{kFree};
    int32_t tid = 0;
    uint32_t depth = 0;
    uint64_t time_ns = 0;
    int64_t period_ns = 0;
  };
  static_assert(std::atomic<uint32_t>::is_always_lock_free && std::atomic<uint64_t>::is_always_lock_free);

  size_t count_, depth_;
  std::unique_ptr<Slot[]> slots_;
  std::unique_ptr<uint64_t[]> frames_;
  std::atomic<uint64_t> next_{0};
  std::atomic<uint64_t> lost_{0};
};

}  // namespace proflow::receivers::self
