// Address ranges of every compile unit, for binaries without .debug_aranges (Go before 1.20, some
// LTO output) where libdw's own address-to-unit lookup finds nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

typedef struct Dwarf Dwarf;

namespace proflow::symbolize {

class CuIndex {
 public:
  // Reads the ranges of every unit of `dwarf` (DW_AT_ranges / low_pc-high_pc of the unit, else of
  // its subprograms).
  explicit CuIndex(Dwarf* dwarf);
  // DIE offset of the unit containing `address` (a DWARF address), if any.
  std::optional<uint64_t> find(uint64_t address) const;
  size_t size() const { return ranges_.size(); }

 private:
  struct Range {
    uint64_t lo, hi, cu_offset;
  };
  std::vector<Range> ranges_;  // sorted by lo
};

}  // namespace proflow::symbolize
