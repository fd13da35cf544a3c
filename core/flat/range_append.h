// Growing one range of a shared column. Ranges of a column are laid out one after the other as the
// batch is built, so a list can grow in place only while it is the column's last; otherwise it is
// copied to the column's end first (its old elements stay behind, unreferenced, until the batch is
// re-encoded).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/flat/flat_batch.h"

namespace proflow::flat {

// Makes `range` of `column` end at the column's end, so that a push_back extends it: an empty
// range starts there, a range that is not the column's last moves there. `extra` is how many
// elements the caller is about to append (reserved together with the copy).
template <class T>
void prepareAppend(std::vector<T>& column, Range& range, size_t extra = 1) {
  if (range.size == 0) {
    range.begin = static_cast<uint32_t>(column.size());
  } else if (range.end() != column.size()) {
    const auto begin = static_cast<uint32_t>(column.size());
    // No reallocation while copying from itself; growth stays geometric when lists move often.
    const size_t needed = column.size() + range.size + extra;
    if (column.capacity() < needed) column.reserve(std::max(needed, 2 * column.capacity()));
    for (uint32_t i = range.begin; i < range.end(); ++i) column.push_back(column[i]);
    range.begin = begin;
  }
}

}  // namespace proflow::flat
