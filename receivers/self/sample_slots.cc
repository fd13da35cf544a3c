#include "receivers/self/sample_slots.h"

#include <span>

namespace proflow::receivers::self {

SampleSlots::SampleSlots(size_t slots, size_t max_depth)
    : count_(slots == 0 ? 1 : slots),
      depth_(max_depth == 0 ? 1 : max_depth),
      slots_(new Slot[count_]),
      frames_(new uint64_t[count_ * depth_]) {}

int64_t SampleSlots::claim() noexcept {
  // A ticket spreads concurrent writers over the slots; a few neighbours are tried when the slot
  // is still taken (the reader is behind), then the sample is given up.
  const uint64_t ticket = next_.fetch_add(1, std::memory_order_relaxed);
  for (uint64_t k = 0; k < 8; ++k) {
    const size_t i = static_cast<size_t>((ticket + k) % count_);
    uint32_t expected = kFree;
    if (slots_[i].state.compare_exchange_strong(expected, kWriting, std::memory_order_acquire,
                                                std::memory_order_relaxed))
      return static_cast<int64_t>(i);
  }
  lost_.fetch_add(1, std::memory_order_relaxed);
  return -1;
}

void SampleSlots::publish(size_t slot, int32_t tid, uint64_t time_ns, int64_t period_ns, size_t depth) noexcept {
  Slot& s = slots_[slot];
  s.tid = tid;
  s.time_ns = time_ns;
  s.period_ns = period_ns;
  s.depth = static_cast<uint32_t>(depth);
  s.state.store(kReady, std::memory_order_release);
}

void SampleSlots::drain(SampleSet* out) {
  for (size_t i = 0; i < count_; ++i) {
    Slot& s = slots_[i];
    if (s.state.load(std::memory_order_acquire) != kReady) continue;
    out->add(s.tid, s.time_ns, s.period_ns, std::span<const uint64_t>(frames(i), s.depth));
    s.state.store(kFree, std::memory_order_release);
  }
  out->lost += lost_.exchange(0, std::memory_order_relaxed);
}

}  // namespace proflow::receivers::self
