#include "processors/symbolize/cu_index.h"

#include <dwarf.h>
#include <elfutils/libdw.h>

#include <algorithm>

namespace proflow::symbolize {
namespace {

// Appends the ranges of `die`; false when it has none.
template <class Add>
bool addRanges(Dwarf_Die* die, const Add& add) {
  Dwarf_Addr base = 0, lo = 0, hi = 0;
  ptrdiff_t off = 0;
  bool any = false;
  while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
    if (hi > lo) add(lo, hi);
    any = true;
  }
  return any;
}

}  // namespace

CuIndex::CuIndex(Dwarf* dwarf) {
  Dwarf_CU* cu = nullptr;
  Dwarf_Die cudie;
  uint8_t unit_type = 0;
  while (dwarf_get_units(dwarf, cu, &cu, nullptr, &unit_type, &cudie, nullptr) == 0) {
    if (unit_type != DW_UT_compile && unit_type != DW_UT_partial) continue;
    const uint64_t offset = dwarf_dieoffset(&cudie);
    auto add = [&](uint64_t lo, uint64_t hi) { ranges_.push_back({lo, hi, offset}); };
    if (addRanges(&cudie, add)) continue;
    Dwarf_Die child;
    if (dwarf_child(&cudie, &child) != 0) continue;
    do {
      if (dwarf_tag(&child) == DW_TAG_subprogram) addRanges(&child, add);
    } while (dwarf_siblingof(&child, &child) == 0);
  }
  std::sort(ranges_.begin(), ranges_.end(), [](const Range& a, const Range& b) { return a.lo < b.lo; });
}

std::optional<uint64_t> CuIndex::find(uint64_t address) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                             [](uint64_t a, const Range& r) { return a < r.lo; });
  // Ranges of different units rarely overlap; look back a little in case they do.
  for (int i = 0; i < 8 && it != ranges_.begin(); ++i) {
    --it;
    if (address >= it->lo && address < it->hi) return it->cu_offset;
  }
  return std::nullopt;
}

}  // namespace proflow::symbolize
