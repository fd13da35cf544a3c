#include "processors/symbolize/otlp_symbolizer.h"

#include <unordered_map>
#include <vector>

#include "core/flat/flat_merge.h"

namespace proflow::symbolize {
namespace {

constexpr std::string_view kGnu = "process.executable.build_id.gnu";
constexpr std::string_view kGo = "process.executable.build_id.go";
constexpr std::string_view kHtl = "process.executable.build_id.htlhash";
constexpr std::string_view kHasPrefix = "pprof.mapping.has_";

std::string stringValue(const flat::Batch& b, const flat::Value& v) {
  if (v.kind == flat::ValueKind::kString) return std::string(b.view(v.bytes));
  if (v.kind == flat::ValueKind::kStrindex) return std::string(b.string(v.strindex()));
  return {};
}

AddressKind kindFor(AddressMode mode, const flat::Mapping& m, uint64_t address) {
  if (mode == AddressMode::kRuntime) return AddressKind::kRuntime;
  if (mode == AddressMode::kElf) return AddressKind::kElfVirtual;
  // pprof addresses lie inside their mapping's range; the eBPF profiler's ELF-space addresses
  // usually do not (its mappings give process ranges), and when they do, the runtime translation of
  // an ELF-space mapping is the identity.
  const bool in_range = m.memory_limit > m.memory_start && address >= m.memory_start && address < m.memory_limit;
  return in_range ? AddressKind::kRuntime : AddressKind::kElfVirtual;
}

struct MappingWork {
  std::vector<uint32_t> locations;
  bool any_file = false, any_line = false, any_inline = false, any_symbolized = false;
};

// The location's lines become the frames (innermost first), appended as a new run of b.lines.
void setLines(flat::DictionaryIndex& dict, const Frames& frames, uint32_t location, MappingWork& w) {
  flat::Batch& b = dict.batch();
  std::vector<flat::Line> lines;
  lines.reserve(frames.size());
  for (const auto& f : frames) {
    flat::Function fn;
    fn.name_strindex = dict.string(f.function);
    fn.system_name_strindex = dict.string(f.system_name);
    fn.filename_strindex = dict.string(f.file);
    lines.push_back(flat::Line{f.line, f.column, dict.function(fn)});
    w.any_file |= !f.file.empty();
    w.any_line |= f.line > 0;
  }
  w.any_inline |= frames.size() > 1;
  b.locations[location].lines = flat::Range{static_cast<uint32_t>(b.lines.size()), static_cast<uint32_t>(lines.size())};
  b.lines.insert(b.lines.end(), lines.begin(), lines.end());
}

// Replaces the mapping's pprof.mapping.has_* attributes with what symbolization produced.
void markMapping(flat::DictionaryIndex& dict, uint32_t mapping, const MappingWork& w, bool has_dwarf) {
  flat::Batch& b = dict.batch();
  std::vector<int32_t> keep;
  for (int32_t idx : b.indexList(b.mappings[mapping].attributes)) {
    if (idx > 0 && static_cast<size_t>(idx) < b.attributes.size() &&
        b.string(b.attributes[static_cast<size_t>(idx)].key_strindex).substr(0, kHasPrefix.size()) == kHasPrefix)
      continue;
    keep.push_back(idx);
  }
  keep.push_back(dict.boolAttribute("pprof.mapping.has_functions", true));
  keep.push_back(dict.boolAttribute("pprof.mapping.has_filenames", w.any_file));
  keep.push_back(dict.boolAttribute("pprof.mapping.has_line_numbers", w.any_line));
  keep.push_back(dict.boolAttribute("pprof.mapping.has_inline_frames", has_dwarf || w.any_inline));
  b.mappings[mapping].attributes = flat::Range{static_cast<uint32_t>(b.indices.size()), static_cast<uint32_t>(keep.size())};
  b.indices.insert(b.indices.end(), keep.begin(), keep.end());
}

}  // namespace

BinaryRef binaryRefOf(const flat::Batch& b, const flat::Mapping& mapping) {
  BinaryRef ref;
  ref.path = std::string(b.string(mapping.filename_strindex));
  for (int32_t idx : b.indexList(mapping.attributes)) {
    if (idx <= 0 || static_cast<size_t>(idx) >= b.attributes.size()) continue;
    const flat::Attribute& kv = b.attributes[static_cast<size_t>(idx)];
    const std::string_view key = b.string(kv.key_strindex);
    if (key == kGnu) ref.gnu_build_id = stringValue(b, kv.value);
    else if (key == kGo) ref.go_build_id = stringValue(b, kv.value);
    else if (key == kHtl) ref.htlhash = stringValue(b, kv.value);
  }
  return ref;
}

SymbolizeCounts symbolizeBatch(Symbolizer& symbolizer, flat::Batch& b, AddressMode mode) {
  SymbolizeCounts counts;
  std::unordered_map<int32_t, MappingWork> work;  // by mapping index
  for (uint32_t i = 1; i < b.locations.size(); ++i) {
    const flat::Location& loc = b.locations[i];
    const int32_t mi = loc.mapping_index;
    if (loc.lines.size > 0 || loc.address == 0 || mi <= 0 || static_cast<size_t>(mi) >= b.mappings.size()) continue;
    work[mi].locations.push_back(i);
  }
  if (work.empty()) return counts;
  // Locations are edited in place (a symbolized location is still the same location); new
  // functions, strings and attributes are interned.
  flat::DictionaryIndex dict(&b);
  for (auto& [mi, w] : work) {
    const flat::Mapping mapping = b.mappings[static_cast<size_t>(mi)];
    LocateResult m = symbolizer.module(binaryRefOf(b, mapping));
    if (!m.module) {
      (m.status == LookupStatus::kError ? counts.errors : counts.not_found) += w.locations.size();
      continue;
    }
    const MappingRange range{mapping.memory_start, mapping.memory_limit, mapping.file_offset};
    for (uint32_t li : w.locations) {
      const uint64_t address = b.locations[li].address;
      FramesPtr frames = Symbolizer::symbolize(*m.module, address, kindFor(mode, mapping, address), range);
      if (!frames || frames->empty()) {
        ++counts.not_found;
        continue;
      }
      setLines(dict, *frames, li, w);
      w.any_symbolized = true;
      ++counts.symbolized;
    }
    if (w.any_symbolized) markMapping(dict, static_cast<uint32_t>(mi), w, m.module->hasDwarf());
  }
  return counts;
}

}  // namespace proflow::symbolize
