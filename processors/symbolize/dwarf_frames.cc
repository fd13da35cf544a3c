// Inline chains from DWARF: walk down from the function holding the address (see FunctionIndex) to
// the innermost scope containing it, then turn every subprogram / inlined_subroutine on that path
// into a frame. The
// innermost frame's file and line come from the line table; every outer frame's from the
// DW_AT_call_* attributes of the inlined instance nested in it (where the call was inlined).
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <vector>

#include "processors/symbolize/elf_module.h"

namespace proflow::symbolize {
namespace {

// Relative source paths (e.g. from ccache's CCACHE_BASEDIR) are relative to the unit's compilation
// directory; join them as llvm-symbolizer does, without normalizing.
std::string fullPath(Dwarf_Die* cu, const char* file) {
  if (file == nullptr) return {};
  if (file[0] == '/' || file[0] == '\0') return file;
  Dwarf_Attribute attr;
  const char* dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
  // A relative comp_dir (Go writes ".") is one libdw has already applied.
  if (dir == nullptr || dir[0] != '/') return file;
  std::string out = dir;
  if (out.back() != '/') out += '/';
  return out + file;
}

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
    if (name != nullptr) f.file = fullPath(cu, name);
  }
  f.line = attrInt(inlined, DW_AT_call_line);
  f.column = attrInt(inlined, DW_AT_call_column);
}

// The row of the unit's line table covering `addr` (a DWARF address): the last row at or before it,
// unless that row ends a sequence. Rows are sorted by address, so this is a binary search.
// libdw sorts an end-of-sequence row before other rows at its address, so a zero-length last row
// of a sequence can appear to cover the gap after it; `outside_functions` (no function holds addr)
// rejects rows sharing their address with a sequence end, since no new function starts there.
bool lineAt(Dwarf_Die* cu, Dwarf_Addr addr, Frame& f, bool outside_functions) {
  Dwarf_Lines* lines = nullptr;
  size_t n = 0;
  if (dwarf_getsrclines(cu, &lines, &n) != 0 || n == 0) return false;
  size_t lo = 0, hi = n;  // first row with address > addr
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    Dwarf_Addr a = 0;
    dwarf_lineaddr(dwarf_onesrcline(lines, mid), &a);
    if (a <= addr) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return false;
  Dwarf_Line* row = dwarf_onesrcline(lines, lo - 1);
  bool end = false;
  if (row == nullptr || dwarf_lineendsequence(row, &end) != 0 || end) return false;
  if (outside_functions) {
    Dwarf_Addr row_addr = 0;
    dwarf_lineaddr(row, &row_addr);
    for (size_t i = lo - 1; i-- > 0;) {
      Dwarf_Line* l = dwarf_onesrcline(lines, i);
      Dwarf_Addr a = 0;
      if (dwarf_lineaddr(l, &a) != 0 || a != row_addr) break;
      if (dwarf_lineendsequence(l, &end) == 0 && end) return false;
    }
  }
  int lineno = 0, column = 0;
  dwarf_lineno(row, &lineno);
  dwarf_linecol(row, &column);
  f.file = fullPath(cu, dwarf_linesrc(row, nullptr, nullptr));
  f.line = lineno;
  f.column = column;
  return true;
}

// The line of `pc`: libdwfl's lookup when it knows the unit, else our own search of the unit.
void setLine(Dwfl_Module* module, const CuRef& cu, uint64_t pc, Frame& f) {
  if (Dwfl_Line* line = dwfl_module_getsrc(module, pc)) {
    int lineno = 0, column = 0;
    const char* file = dwfl_lineinfo(line, nullptr, &lineno, &column, nullptr, nullptr);
    Dwarf_Die die = cu.die;
    if (file != nullptr) f.file = fullPath(&die, file);
    f.line = lineno;
    f.column = column;
    return;
  }
  Dwarf_Die die = cu.die;
  lineAt(&die, pc - cu.bias, f, false);
}

}  // namespace

bool appendDwarfFrames(Dwfl_Module* module, const CuRef& cu_ref, Dwarf_Die* function, uint64_t pc, Frames& out) {
  Dwarf_Die cu = cu_ref.die;
  std::vector<Dwarf_Die> chain;
  chain.reserve(16);
  chain.push_back(*function);
  descend(&chain.back(), pc - cu_ref.bias, chain);
  std::vector<Dwarf_Die*> functions;  // innermost first
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    if (isFunction(dwarf_tag(&*it))) functions.push_back(&*it);
  if (functions.empty()) return false;

  const size_t first = out.size();
  for (size_t i = 0; i < functions.size(); ++i) {
    Frame f;
    setNames(functions[i], f);
    if (i > 0) setCallSite(&cu, functions[i - 1], f);
    out.push_back(std::move(f));
  }
  setLine(module, cu_ref, pc, out[first]);
  return true;
}

void appendLineInfo(const CuRef& cu_ref, uint64_t pc, Frames& out) {
  // Code outside every function (padding, assembly). Unlike dwfl_module_getsrc, our search does
  // not stretch the last row of a sequence over the gap after it.
  Dwarf_Die cu = cu_ref.die;
  Frame f;
  // Only inside the unit's own ranges: its line table may run on over padding it does not own.
  if (dwarf_haspc(&cu, pc - cu_ref.bias) != 1 || !lineAt(&cu, pc - cu_ref.bias, f, true)) return;
  if (out.empty()) out.push_back(Frame{});
  out[0].file = std::move(f.file);
  out[0].line = f.line;
  out[0].column = f.column;
}

}  // namespace proflow::symbolize
