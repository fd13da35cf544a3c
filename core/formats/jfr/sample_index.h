// Internal to the JFR converter: flat open-addressing maps from a small key to a sample index, looked up
// once per event (no node allocation per entry).
//   SampleIndex: an OTLP sample's identity {stack, attributes, link} -> its index in a profile.
//   EventSampleIndex: per chunk, the raw pool keys of an event {stack trace id, thread id, context, profile}
//   -> that sample index, so repeated events skip resolving stack and thread altogether.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace proflow::jfr::internal {

struct SampleKey {
  int32_t stack, thread_attr, span_attr, link;
  int64_t context;
  int32_t state_attr = 0, truncated_attr = 0;
  bool operator==(const SampleKey&) const = default;
};
struct SampleKeyHash {
  size_t operator()(const SampleKey& k) const {
    uint64_t h = static_cast<uint32_t>(k.stack) * 0x9E3779B97F4A7C15ull;
    h ^= (static_cast<uint64_t>(static_cast<uint32_t>(k.thread_attr)) << 32 | static_cast<uint32_t>(k.link)) +
         0x7F4A7C15ull + (h << 6) + (h >> 2);
    h ^= static_cast<uint64_t>(k.context) * 0xC2B2AE3D27D4EB4Full + static_cast<uint32_t>(k.span_attr) +
         (static_cast<uint64_t>(static_cast<uint32_t>(k.state_attr)) << 20);
    return h ^ (h >> 29);
  }
};

// Pool keys of an event, as read (chunk-scoped). `tag` holds the target profile and which of the
// fields the event has, so an absent field never matches a present one.
struct EventKey {
  uint64_t stack, thread;
  int64_t context;
  uint32_t tag;
  bool operator==(const EventKey&) const = default;
};
struct EventKeyHash {
  size_t operator()(const EventKey& k) const {
    uint64_t h = k.stack * 0x9E3779B97F4A7C15ull ^ k.thread * 0xC2B2AE3D27D4EB4Full ^
                 static_cast<uint64_t>(k.context) * 0x165667B19E3779F9ull ^ k.tag;
    return h ^ (h >> 31);
  }
};

template <class Key, class Hash>
class FlatIndex {
 public:
  // The index stored for `k`, or -1.
  int32_t find(const Key& k) const {
    if (slots_.empty()) return -1;
    size_t mask = slots_.size() - 1;
    for (size_t i = Hash()(k) & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.value < 0 || s.key == k) return s.value;
    }
  }
  // Returns the index stored for `k`, or inserts `value` (>= 0) and returns -1.
  int32_t findOrInsert(const Key& k, int32_t value) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = Hash()(k) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.value < 0) {
        s = {k, value};
        ++size_;
        return -1;
      }
      if (s.key == k) return s.value;
    }
  }
  // Empties the map; the table's memory is kept for the next chunk.
  void clear() {
    if (size_ != 0) std::fill(slots_.begin(), slots_.end(), Slot{});
    size_ = 0;
  }

 private:
  struct Slot {
    Key key{};
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

using SampleIndex = FlatIndex<SampleKey, SampleKeyHash>;
using EventSampleIndex = FlatIndex<EventKey, EventKeyHash>;

}  // namespace proflow::jfr::internal
