#include "core/util/index_set.h"

namespace proflow {

void IndexSet::grow() { rehash(slots_.empty() ? 64 : slots_.size() * 2); }

void IndexSet::reserve(size_t n) {
  size_t want = 64;
  while (want * 3 < n * 4) want *= 2;
  if (want > slots_.size()) rehash(want);
}

void IndexSet::rehash(size_t slot_count) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(slot_count, Slot{0, -1});
  const size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.index < 0) continue;
    size_t i = s.tag & mask;
    while (slots_[i].index >= 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

}  // namespace proflow
