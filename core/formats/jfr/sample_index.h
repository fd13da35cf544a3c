// Internal to the JFR converter: the identity of an OTLP sample ({stack, attributes, link}) and a flat
// hash map from it to the sample's index, looked up once per event.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace proflow::jfr::internal {

struct SampleKey {
  int32_t stack, thread_attr, span_attr, link;
  int64_t context;
  bool operator==(const SampleKey&) const = default;
};
struct SampleKeyHash {
  size_t operator()(const SampleKey& k) const {
    uint64_t h = static_cast<uint32_t>(k.stack) * 0x9E3779B97F4A7C15ull;
    h ^= (static_cast<uint64_t>(static_cast<uint32_t>(k.thread_attr)) << 32 | static_cast<uint32_t>(k.link)) +
         0x7F4A7C15ull + (h << 6) + (h >> 2);
    h ^= static_cast<uint64_t>(k.context) * 0xC2B2AE3D27D4EB4Full + static_cast<uint32_t>(k.span_attr);
    return h ^ (h >> 29);
  }
};

// Open-addressing map SampleKey -> sample index: one lookup per event, so no node allocation per sample.
class SampleIndex {
 public:
  // Returns the index stored for `k`, or inserts `value` and returns -1.
  int32_t findOrInsert(const SampleKey& k, int32_t value) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = SampleKeyHash()(k) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.value < 0) {
        s = {k, value};
        ++size_;
        return -1;
      }
      if (s.key == k) return s.value;
    }
  }
  void clear() {
    slots_.clear();
    size_ = 0;
  }

 private:
  struct Slot {
    SampleKey key{};
    int32_t value = -1;
  };
  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.resize(old.empty() ? 64 : old.size() * 2);
    size_ = 0;
    for (const Slot& s : old)
      if (s.value >= 0) findOrInsert(s.key, s.value);
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace proflow::jfr::internal
