// Open-addressing set of table indexes. It stores no keys: a probe compares the candidate with the
// entry already in the caller's table (through `eq`), so interning allocates nothing per entry. Used
// by flat::DictionaryIndex and by the format converters for their own output tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace proflow {

class IndexSet {
 public:
  // Returns the index of the entry equal to the candidate (`eq(index)`), or stores `make()` (which
  // appends the entry to the table and returns its index) and returns that.
  template <class Eq, class Make>
  int32_t intern(uint64_t hash, const Eq& eq, const Make& make);
  // -1 when absent.
  template <class Eq>
  int32_t find(uint64_t hash, const Eq& eq) const;
  // Sizes the slots for `n` entries up front (a converter that knows its table size).
  void reserve(size_t n);

 private:
  struct Slot {
    uint32_t tag;   // low bits of the hash: position and a cheap pre-check before `eq`
    int32_t index;  // -1: empty
  };
  void grow();
  void rehash(size_t slot_count);

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

template <class Eq, class Make>
int32_t IndexSet::intern(uint64_t hash, const Eq& eq, const Make& make) {
  if ((size_ + 1) * 4 > slots_.size() * 3) grow();  // keep the load under 3/4
  const auto tag = static_cast<uint32_t>(hash ^ (hash >> 32));
  const size_t mask = slots_.size() - 1;
  for (size_t i = tag & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.index < 0) {
      s.index = make();
      s.tag = tag;
      ++size_;
      return s.index;
    }
    if (s.tag == tag && eq(s.index)) return s.index;
  }
}

template <class Eq>
int32_t IndexSet::find(uint64_t hash, const Eq& eq) const {
  if (slots_.empty()) return -1;
  const auto tag = static_cast<uint32_t>(hash ^ (hash >> 32));
  const size_t mask = slots_.size() - 1;
  for (size_t i = tag & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.index < 0) return -1;
    if (s.tag == tag && eq(s.index)) return s.index;
  }
}

}  // namespace proflow
