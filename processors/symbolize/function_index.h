// The out-of-line functions (DW_TAG_subprogram with addresses) of one compile unit, sorted by
// address. Built by one walk of the unit, it turns "which function holds this pc" from a walk of the
// unit's DIE tree per address into a binary search.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <elfutils/libdw.h>

namespace proflow::symbolize {

class FunctionIndex {
 public:
  explicit FunctionIndex(Dwarf_Die* cu);
  // DIE offset of the innermost subprogram whose ranges hold `address` (a DWARF address).
  std::optional<uint64_t> find(uint64_t address) const;
  size_t bytes() const { return ranges_.capacity() * sizeof(Range); }

 private:
  struct Range {
    uint64_t lo, hi, die_offset;
  };
  void walk(Dwarf_Die* parent);
  std::vector<Range> ranges_;  // sorted by lo
};

}  // namespace proflow::symbolize
