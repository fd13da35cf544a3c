#include "processors/symbolize/symbol_index.h"

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include <algorithm>

namespace proflow::symbolize {

SymbolIndex::SymbolIndex(Dwfl_Module* module) {
  const int n = dwfl_module_getsymtab(module);
  const char* file = nullptr;
  for (int i = 1; i < n; ++i) {
    GElf_Sym sym;
    GElf_Addr addr = 0;
    GElf_Word shndx = 0;
    const char* name = dwfl_module_getsym_info(module, i, &sym, &addr, &shndx, nullptr, nullptr);
    if (name == nullptr) continue;
    const int type = GELF_ST_TYPE(sym.st_info);
    if (type == STT_FILE) {
      file = *name != '\0' ? name : nullptr;
      continue;
    }
    if ((type != STT_FUNC && type != STT_GNU_IFUNC) || shndx == SHN_UNDEF || *name == '\0') continue;
    const bool local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
    symbols_.push_back({addr, sym.st_size, name, local ? file : nullptr});
  }
  // Several names at one address (aliases, identical code folding): llvm-symbolizer answers with
  // the largest symbol, then the one latest in the table (globals follow their .localalias); so do
  // we, hence the reversed stable sort.
  std::reverse(symbols_.begin(), symbols_.end());
  std::stable_sort(symbols_.begin(), symbols_.end(), [](const Symbol& a, const Symbol& b) {
    if (a.address != b.address) return a.address < b.address;
    return a.size > b.size;
  });
  symbols_.shrink_to_fit();
}

std::optional<SymbolIndex::Symbol> SymbolIndex::find(uint64_t address) const {
  auto it = std::upper_bound(symbols_.begin(), symbols_.end(), address,
                             [](uint64_t a, const Symbol& s) { return a < s.address; });
  if (it == symbols_.begin()) return std::nullopt;
  const uint64_t start = std::prev(it)->address;
  // Among symbols at that address, the first one (a sized one if any).
  while (it != symbols_.begin() && std::prev(it)->address == start) --it;
  if (it->size != 0 && address >= it->address + it->size) return std::nullopt;
  return *it;
}

}  // namespace proflow::symbolize
