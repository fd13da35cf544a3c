// A module's function symbols sorted by address, for O(log n) lookups: libdwfl's own
// dwfl_module_addrinfo scans the whole symbol table on every call. Also remembers the source file
// of local symbols (the STT_FILE symbol before them), which llvm-symbolizer reports without DWARF.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

typedef struct Dwfl_Module Dwfl_Module;

namespace proflow::symbolize {

class SymbolIndex {
 public:
  explicit SymbolIndex(Dwfl_Module* module);

  struct Symbol {
    uint64_t address = 0;  // dwfl address
    uint64_t size = 0;
    const char* name = nullptr;  // owned by libdwfl, valid while the module lives
    const char* file = nullptr;  // STT_FILE of a local symbol, else null
  };
  // The symbol covering `address`: the last one starting at or before it, unless it has a size
  // and the address lies past its end (llvm-symbolizer's rule).
  std::optional<Symbol> find(uint64_t address) const;
  size_t bytes() const { return symbols_.capacity() * sizeof(Symbol); }

 private:
  std::vector<Symbol> symbols_;
};

}  // namespace proflow::symbolize
