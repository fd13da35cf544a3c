#include "processors/symbolize/function_index.h"

#include <dwarf.h>

#include <algorithm>

namespace proflow::symbolize {
namespace {

// Tags whose children may hold subprogram definitions (local classes live inside functions).
bool mayHoldFunctions(int tag) {
  switch (tag) {
    case DW_TAG_namespace:
    case DW_TAG_class_type:
    case DW_TAG_structure_type:
    case DW_TAG_union_type:
    case DW_TAG_module:
    case DW_TAG_subprogram:
    case DW_TAG_lexical_block:
      return true;
    default:
      return false;
  }
}

}  // namespace

FunctionIndex::FunctionIndex(Dwarf_Die* cu) {
  walk(cu);
  std::sort(ranges_.begin(), ranges_.end(), [](const Range& a, const Range& b) { return a.lo < b.lo; });
  ranges_.shrink_to_fit();
}

void FunctionIndex::walk(Dwarf_Die* parent) {
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0) return;
  do {
    const int tag = dwarf_tag(&child);
    if (tag == DW_TAG_subprogram) {
      Dwarf_Addr base = 0, lo = 0, hi = 0;
      ptrdiff_t off = 0;
      while ((off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0)
        if (hi > lo) ranges_.push_back({lo, hi, dwarf_dieoffset(&child)});
    }
    if (mayHoldFunctions(tag)) walk(&child);
  } while (dwarf_siblingof(&child, &child) == 0);
}

std::optional<uint64_t> FunctionIndex::find(uint64_t address) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                             [](uint64_t a, const Range& r) { return a < r.lo; });
  // The closest start wins (the innermost of nested ranges); enclosing ranges start earlier.
  for (int i = 0; i < 64 && it != ranges_.begin(); ++i) {
    --it;
    if (address < it->hi) return it->die_offset;
  }
  return std::nullopt;
}

}  // namespace proflow::symbolize
