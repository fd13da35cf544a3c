#include "core/formats/perf/kernel_symbols.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/flat/flat_merge.h"
#include "core/formats/perf/profile_builder.h"
#include "core/util/hex.h"

namespace proflow::perf {
namespace {

struct Symbol {
  uint64_t address;
  std::string_view name;
  char type;
};

// Of two symbols at one address, the one perf names frames after: not weak, then global, then
// fewer leading underscores, then the longer name.
bool better(const Symbol& a, const Symbol& b) {
  const bool weak_a = a.type == 'w' || a.type == 'W', weak_b = b.type == 'w' || b.type == 'W';
  if (weak_a != weak_b) return weak_b;
  const bool global_a = a.type == 'T' || a.type == 'W', global_b = b.type == 'T' || b.type == 'W';
  if (global_a != global_b) return global_a;
  const size_t ua = a.name.find_first_not_of('_'), ub = b.name.find_first_not_of('_');
  if (ua != ub) return ua < ub;
  return a.name.size() > b.name.size();
}

// Text symbols (t, T, w, W) of the kernel itself (module symbols, "name [module]", are left out).
std::vector<Symbol> textSymbols(std::string_view kallsyms) {
  std::vector<Symbol> out;
  size_t pos = 0;
  while (pos < kallsyms.size()) {
    size_t nl = kallsyms.find('\n', pos);
    if (nl == std::string_view::npos) nl = kallsyms.size();
    std::string_view line = kallsyms.substr(pos, nl - pos);
    pos = nl + 1;
    const size_t sp1 = line.find(' ');
    if (sp1 == std::string_view::npos || sp1 + 3 > line.size() || line[sp1 + 2] != ' ') continue;
    const char type = line[sp1 + 1];
    if (type != 't' && type != 'T' && type != 'w' && type != 'W') continue;
    std::string_view name = line.substr(sp1 + 3);
    if (name.find('\t') != std::string_view::npos || name.find(' ') != std::string_view::npos) continue;
    uint64_t address = 0;
    auto [p, ec] = std::from_chars(line.data(), line.data() + sp1, address, 16);
    if (ec != std::errc() || p != line.data() + sp1) continue;
    out.push_back({address, name, type});
  }
  std::stable_sort(out.begin(), out.end(), [](const Symbol& a, const Symbol& b) { return a.address < b.address; });
  std::vector<Symbol> unique;  // one symbol per address
  for (const Symbol& s : out) {
    if (!unique.empty() && unique.back().address == s.address) {
      if (better(s, unique.back())) unique.back() = s;
    } else {
      unique.push_back(s);
    }
  }
  return unique;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

std::string buildIdFromNotes(std::string_view notes) {
  size_t pos = 0;
  auto u32 = [&](size_t at) {
    uint32_t v = 0;
    std::memcpy(&v, notes.data() + at, 4);
    return v;
  };
  while (pos + 12 <= notes.size()) {
    const uint64_t namesz = u32(pos), descsz = u32(pos + 4), type = u32(pos + 8);
    const uint64_t name_at = pos + 12, desc_at = name_at + ((namesz + 3) & ~3ull);
    const uint64_t next = desc_at + ((descsz + 3) & ~3ull);
    if (next > notes.size()) break;
    if (type == 3 && namesz == 4 && notes.substr(name_at, 4) == std::string_view("GNU\0", 4))
      return hexEncode({reinterpret_cast<const uint8_t*>(notes.data() + desc_at), descsz});
    pos = next;
  }
  return "";
}

uint64_t nameKernelFrames(flat::Batch* batch, std::string_view kallsyms, std::string_view kernel_build_id) {
  flat::Batch& b = *batch;
  if (kernel_build_id.empty()) return 0;
  std::vector<bool> kernel_mapping(b.mappings.size(), false);
  bool any = false;
  for (size_t i = 1; i < b.mappings.size(); ++i) {
    if (b.string(b.mappings[i].filename_strindex) != "[kernel.kallsyms]") continue;
    for (int32_t a : b.indexList(b.mappings[i].attributes)) {
      const flat::Attribute& attr = b.attributes[static_cast<size_t>(a)];
      if (b.string(attr.key_strindex) == "process.executable.build_id.gnu" &&
          attr.value.kind == flat::ValueKind::kString && b.view(attr.value.bytes) == kernel_build_id)
        kernel_mapping[i] = any = true;
    }
  }
  if (!any) return 0;
  const std::vector<Symbol> symbols = textSymbols(kallsyms);
  if (symbols.empty() || symbols.back().address == 0) return 0;  // addresses hidden (kptr_restrict)
  flat::DictionaryIndex dict(&b);
  uint64_t named = 0;
  for (size_t i = 1; i < b.locations.size(); ++i) {
    const flat::Location& loc = b.locations[i];
    const size_t m = static_cast<size_t>(loc.mapping_index);
    if (m == 0 || m >= kernel_mapping.size() || !kernel_mapping[m] || loc.lines.size != 1) continue;
    flat::Line& line = b.lines[loc.lines.begin];
    if (b.string(b.functions[static_cast<size_t>(line.function_index)].name_strindex) != "[kernel]") continue;
    auto it = std::upper_bound(symbols.begin(), symbols.end(), loc.address,
                               [](uint64_t a, const Symbol& s) { return a < s.address; });
    if (it == symbols.begin()) continue;
    flat::Function f;
    f.name_strindex = dict.string(std::prev(it)->name);
    line.function_index = dict.function(f);
    ++named;
  }
  return named;
}

uint64_t nameKernelFramesFromRunningKernel(flat::Batch* batch, const std::string& kallsyms_path,
                                           const std::string& notes_path) {
  return nameKernelFrames(batch, readFile(kallsyms_path), buildIdFromNotes(readFile(notes_path)));
}

}  // namespace proflow::perf
