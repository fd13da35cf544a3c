// Inline chains from DWARF: walk the compile unit's DIE tree down to the innermost scope containing
// the address, then turn every subprogram / inlined_subroutine on that path into a frame. The
// innermost frame's file and line come from the line table; every outer frame's from the
// DW_AT_call_* attributes of the inlined instance nested in it (where the call was inlined).
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <vector>

#include "processors/symbolize/elf_module.h"

namespace proflow::symbolize {
namespace {

bool isFunction(int tag) { return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine; }

// Appends the DIEs containing `pc` under `parent`, outermost first. Types and namespaces carry no
// address ranges but may hold function definitions, so they are searched without a range check.
bool descend(Dwarf_Die* parent, Dwarf_Addr pc, std::vector<Dwarf_Die>& chain) {
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0) return false;
  while (true) {
    switch (dwarf_tag(&child)) {
      case DW_TAG_subprogram:
      case DW_TAG_inlined_subroutine:
      case DW_TAG_lexical_block:
      case DW_TAG_entry_point:
        if (dwarf_haspc(&child, pc) == 1) {
          chain.push_back(child);
          descend(&chain.back(), pc, chain);
          return true;
        }
        break;
      case DW_TAG_namespace:
      case DW_TAG_class_type:
      case DW_TAG_structure_type:
      case DW_TAG_union_type:
      case DW_TAG_module:
        if (descend(&child, pc, chain)) return true;
        break;
      default:
        break;
    }
    Dwarf_Die next;
    if (dwarf_siblingof(&child, &next) != 0) return false;
    child = next;
  }
}

std::string attrString(Dwarf_Die* die, unsigned int name) {
  Dwarf_Attribute attr;
  if (dwarf_attr_integrate(die, name, &attr) == nullptr) return {};
  const char* s = dwarf_formstring(&attr);
  return s != nullptr ? s : "";
}

void setNames(Dwarf_Die* die, Frame& f) {
  std::string linkage = attrString(die, DW_AT_linkage_name);
  if (linkage.empty()) linkage = attrString(die, DW_AT_MIPS_linkage_name);
  if (linkage.empty()) {
    f.function = attrString(die, DW_AT_name);
    return;
  }
  f.function = demangle(linkage);
  if (f.function != linkage) f.system_name = std::move(linkage);
}

int64_t attrInt(Dwarf_Die* die, unsigned int name) {
  Dwarf_Attribute attr;
  Dwarf_Word value = 0;
  if (dwarf_attr(die, name, &attr) == nullptr || dwarf_formudata(&attr, &value) != 0) return 0;
  return static_cast<int64_t>(value);
}

// Where the inlined instance `inlined` was called from, written into the caller's frame `f`.
void setCallSite(Dwarf_Die* cu, Dwarf_Die* inlined, Frame& f) {
  Dwarf_Attribute attr;
  Dwarf_Word index = 0;
  Dwarf_Files* files = nullptr;
  size_t nfiles = 0;
  if (dwarf_attr(inlined, DW_AT_call_file, &attr) != nullptr && dwarf_formudata(&attr, &index) == 0 &&
      dwarf_getsrcfiles(cu, &files, &nfiles) == 0 && index < nfiles) {
    const char* name = dwarf_filesrc(files, index, nullptr, nullptr);
    if (name != nullptr) f.file = name;
  }
  f.line = attrInt(inlined, DW_AT_call_line);
  f.column = attrInt(inlined, DW_AT_call_column);
}

// The line table entry of `pc`; false when no line table covers it.
bool setLine(Dwfl_Module* module, uint64_t pc, Frame& f) {
  Dwfl_Line* line = dwfl_module_getsrc(module, pc);
  if (line == nullptr) return false;
  int lineno = 0, column = 0;
  const char* file = dwfl_lineinfo(line, nullptr, &lineno, &column, nullptr, nullptr);
  if (file != nullptr) f.file = file;
  f.line = lineno;
  f.column = column;
  return true;
}

}  // namespace

bool appendDwarfFrames(Dwfl_Module* module, uint64_t pc, Frames& out) {
  Dwarf_Addr cu_bias = 0;
  Dwarf_Die* cu = dwfl_module_addrdie(module, pc, &cu_bias);
  if (cu == nullptr) return false;
  std::vector<Dwarf_Die> chain;
  chain.reserve(16);
  descend(cu, pc - cu_bias, chain);
  std::vector<Dwarf_Die*> functions;  // innermost first
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    if (isFunction(dwarf_tag(&*it))) functions.push_back(&*it);
  if (functions.empty()) return false;

  const size_t first = out.size();
  for (size_t i = 0; i < functions.size(); ++i) {
    Frame f;
    setNames(functions[i], f);
    if (i > 0) setCallSite(cu, functions[i - 1], f);
    out.push_back(std::move(f));
  }
  setLine(module, pc, out[first]);
  return true;
}

void appendLineInfo(Dwfl_Module* module, uint64_t pc, Frames& out) {
  // Rare path (code outside every function): scan the unit's rows for the last one at or before pc,
  // which must not be an end-of-sequence marker. dwfl_module_getsrc would instead answer with the
  // last real row of the previous sequence.
  Dwarf_Addr bias = 0;
  Dwarf_Die* cu = dwfl_module_addrdie(module, pc, &bias);
  Dwarf_Lines* lines = nullptr;
  size_t n = 0;
  if (cu == nullptr || dwarf_getsrclines(cu, &lines, &n) != 0) return;
  // A row covers [its address, the next row's address); end-of-sequence rows cover nothing.
  Dwarf_Line* best = nullptr;
  for (size_t i = 0; i + 1 < n && best == nullptr; ++i) {
    Dwarf_Line* l = dwarf_onesrcline(lines, i);
    Dwarf_Addr a = 0, next = 0;
    bool end = false;
    if (l == nullptr || dwarf_lineaddr(l, &a) != 0 || a > pc - bias) continue;
    if (dwarf_lineaddr(dwarf_onesrcline(lines, i + 1), &next) != 0 || next <= pc - bias) continue;
    if (dwarf_lineendsequence(l, &end) == 0 && !end) best = l;
  }
  if (best == nullptr) return;
  int lineno = 0, column = 0;
  dwarf_lineno(best, &lineno);
  dwarf_linecol(best, &column);
  const char* file = dwarf_linesrc(best, nullptr, nullptr);
  if (out.empty()) out.push_back(Frame{});
  out[0].file = file != nullptr ? file : "";
  out[0].line = lineno;
  out[0].column = column;
}

}  // namespace proflow::symbolize
