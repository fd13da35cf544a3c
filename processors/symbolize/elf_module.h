// One binary opened for symbolization through elfutils' libdwfl: its load segments (for runtime
// address translation), its DWARF (functions, lines, inline chains) and its symbol table (.symtab,
// .dynsym or .gnu_debugdata) as fallback. libdw objects are not thread-safe, so lookups on one module
// are serialized; different modules run in parallel.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <elfutils/libdw.h>

#include "processors/symbolize/cu_index.h"
#include "processors/symbolize/frame.h"
#include "processors/symbolize/function_index.h"
#include "processors/symbolize/symbol_index.h"

typedef struct Dwfl Dwfl;
typedef struct Dwfl_Module Dwfl_Module;

namespace proflow::symbolize {

// A compile unit and the bias of its addresses (dwfl address = DWARF address + bias).
struct CuRef {
  Dwarf_Die die;
  uint64_t bias = 0;
};

class ElfModule {
 public:
  // `elf_path` is the file whose program headers describe the process image: the binary itself or,
  // when only that was found, its separate debug file (which keeps the program headers).
  // `debug_path` optionally names a separate file holding the DWARF (.build-id/xx/rest.debug,
  // a .gnu_debuglink target, a debuginfod download). Returns null and sets `error` when the file is
  // not a usable ELF.
  static std::unique_ptr<ElfModule> open(const std::string& elf_path, const std::string& debug_path,
                                         std::string* error);
  ~ElfModule();
  ElfModule(const ElfModule&) = delete;
  ElfModule& operator=(const ElfModule&) = delete;

  // Turns an address into an ELF virtual address; nullopt when a runtime address falls outside every
  // PT_LOAD segment.
  std::optional<uint64_t> toElfAddress(uint64_t address, AddressKind kind, const MappingRange& mapping) const;

  // Frames for an ELF virtual address (memoized); empty when neither DWARF nor a symbol covers it.
  FramesPtr symbolize(uint64_t elf_address);

  bool hasDwarf() const { return has_dwarf_; }
  bool hasSymbols() const { return has_symbols_; }
  // Approximate memory this module holds: mapped file sizes plus memoized answers.
  size_t memoryEstimate() const;

 private:
  struct Segment {
    uint64_t vaddr, offset, filesz;
  };
  ElfModule() = default;
  bool load(const std::string& elf_path, std::string* error);
  Frames lookup(uint64_t elf_address);
  void symtabFrame(uint64_t dwfl_address, Frames& out);
  CuRef* findCu(uint64_t pc, CuRef* storage);
  bool findFunction(const CuRef& cu, uint64_t pc, Dwarf_Die* function);

  Dwfl* dwfl_ = nullptr;
  Dwfl_Module* module_ = nullptr;
  uint64_t bias_ = 0;  // dwfl address = ELF virtual address + bias_
  std::vector<Segment> segments_;
  std::string debug_path_;
  bool has_dwarf_ = false;
  bool has_symbols_ = false;
  size_t file_bytes_ = 0;
  std::unique_ptr<SymbolIndex> symbols_;  // built on first use
  std::unordered_map<uint64_t, std::unique_ptr<FunctionIndex>> functions_;  // by unit DIE offset
  size_t index_bytes_ = 0;
  // Built on the first address libdw cannot place in a unit (no .debug_aranges, as in Go binaries).
  std::unique_ptr<CuIndex> cu_index_;

  mutable std::mutex mu_;
  std::unordered_map<uint64_t, FramesPtr> memo_;
  size_t memo_bytes_ = 0;
};

// Appends the inline chain at `pc` (a dwfl address) inside `function`, a subprogram of unit `cu`
// holding pc; false when the chain has no function. Defined in dwarf_frames.cc.
bool appendDwarfFrames(Dwfl_Module* module, const CuRef& cu, Dwarf_Die* function, uint64_t pc, Frames& out);

// Fills file, line and column of out[0] (adding an unnamed frame when `out` is empty) from the line
// table row of `pc` in `cu`, if there is one. Defined in dwarf_frames.cc.
void appendLineInfo(const CuRef& cu, uint64_t pc, Frames& out);

// Demangles an Itanium C++ name; returns it unchanged when it is not one.
std::string demangle(const std::string& name);

}  // namespace proflow::symbolize
