// Open-addressing hash map from a 64-bit constant-pool key to a 32-bit chunk offset. Pools hold up to
// millions of entries; this keeps one flat array per type instead of a node per entry.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace proflow::jfr {

class KeyIndex {
 public:
  static constexpr uint32_t kAbsent = 0xFFFFFFFFu;

  // Empties the map but keeps its table, so the next chunk's pools do not reallocate.
  void clear() {
    if (size_ != 0) std::fill(slots_.begin(), slots_.end(), Slot{});
    size_ = 0;
  }
  size_t size() const { return size_; }

  // Inserts or replaces (a later pool entry with the same key wins, as in the JDK reader).
  void put(uint64_t key, uint32_t value) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    size_t i = find(key);
    if (slots_[i].value == kAbsent) ++size_;
    slots_[i] = {key, value};
  }

  template <class F>
  void forEachKey(F&& f) const {
    for (const Slot& s : slots_)
      if (s.value != kAbsent) f(s.key);
  }

  uint32_t get(uint64_t key) const {
    if (slots_.empty()) return kAbsent;
    return slots_[find(key)].value;
  }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t value = kAbsent;
  };

  static uint64_t mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
  }

  size_t find(uint64_t key) const {
    size_t mask = slots_.size() - 1;
    size_t i = mix(key) & mask;
    while (slots_[i].value != kAbsent && slots_[i].key != key) i = (i + 1) & mask;
    return i;
  }

  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 16 : old.size() * 2, Slot{});
    for (const Slot& s : old)
      if (s.value != kAbsent) slots_[find(s.key)] = s;
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace proflow::jfr
