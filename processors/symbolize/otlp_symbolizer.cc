#include "processors/symbolize/otlp_symbolizer.h"

#include <unordered_map>
#include <vector>

#include "core/dictionary_builder.h"

namespace proflow::symbolize {
namespace {

constexpr std::string_view kGnu = "process.executable.build_id.gnu";
constexpr std::string_view kGo = "process.executable.build_id.go";
constexpr std::string_view kHtl = "process.executable.build_id.htlhash";
constexpr std::string_view kHasPrefix = "pprof.mapping.has_";

std::string stringValue(const otlp::Dictionary& dict, const otlp::AnyValue& v) {
  if (v.value_case() == otlp::AnyValue::kStringValue) return v.string_value();
  if (v.value_case() == otlp::AnyValue::kStringValueStrindex)
    return std::string(dictString(dict, v.string_value_strindex()));
  return {};
}

AddressKind kindFor(AddressMode mode, const otlp::Mapping& m, uint64_t address) {
  if (mode == AddressMode::kRuntime) return AddressKind::kRuntime;
  if (mode == AddressMode::kElf) return AddressKind::kElfVirtual;
  // pprof addresses lie inside their mapping's range; the eBPF profiler's ELF-space addresses
  // usually do not (its mappings give process ranges), and when they do, the runtime translation of
  // an ELF-space mapping is the identity.
  const bool in_range = m.memory_limit() > m.memory_start() && address >= m.memory_start() &&
                        address < m.memory_limit();
  return in_range ? AddressKind::kRuntime : AddressKind::kElfVirtual;
}

struct MappingWork {
  std::vector<int> locations;
  bool any_file = false, any_line = false, any_inline = false, any_symbolized = false;
};

void addLines(DictionaryBuilder& builder, const Frames& frames, otlp::Location& loc, MappingWork& w) {
  for (const auto& f : frames) {
    otlp::Line* line = loc.add_lines();
    line->set_function_index(builder.function(f.function, f.system_name, f.file, 0));
    line->set_line(f.line);
    line->set_column(f.column);
    w.any_file |= !f.file.empty();
    w.any_line |= f.line > 0;
  }
  w.any_inline |= frames.size() > 1;
}

// Replaces the mapping's pprof.mapping.has_* attributes with what symbolization produced.
void markMapping(DictionaryBuilder& builder, otlp::Mapping& m, const MappingWork& w, bool has_dwarf) {
  const otlp::Dictionary& dict = builder.dictionary();
  std::vector<int32_t> keep;
  for (int32_t idx : m.attribute_indices()) {
    if (idx > 0 && idx < dict.attribute_table_size() &&
        dictString(dict, dict.attribute_table(idx).key_strindex()).substr(0, kHasPrefix.size()) == kHasPrefix)
      continue;
    keep.push_back(idx);
  }
  keep.push_back(builder.boolAttribute("pprof.mapping.has_functions", true));
  keep.push_back(builder.boolAttribute("pprof.mapping.has_filenames", w.any_file));
  keep.push_back(builder.boolAttribute("pprof.mapping.has_line_numbers", w.any_line));
  keep.push_back(builder.boolAttribute("pprof.mapping.has_inline_frames", has_dwarf || w.any_inline));
  m.mutable_attribute_indices()->Assign(keep.begin(), keep.end());
}

}  // namespace

BinaryRef binaryRefOf(const otlp::Dictionary& dict, const otlp::Mapping& mapping) {
  BinaryRef ref;
  ref.path = std::string(dictString(dict, mapping.filename_strindex()));
  for (int32_t idx : mapping.attribute_indices()) {
    if (idx <= 0 || idx >= dict.attribute_table_size()) continue;
    const auto& kv = dict.attribute_table(idx);
    const std::string_view key = dictString(dict, kv.key_strindex());
    if (key == kGnu) ref.gnu_build_id = stringValue(dict, kv.value());
    else if (key == kGo) ref.go_build_id = stringValue(dict, kv.value());
    else if (key == kHtl) ref.htlhash = stringValue(dict, kv.value());
  }
  return ref;
}

SymbolizeCounts symbolizeRequest(Symbolizer& symbolizer, otlp::Request& request, AddressMode mode) {
  SymbolizeCounts counts;
  otlp::Dictionary* dict = request.mutable_dictionary();
  std::unordered_map<int32_t, MappingWork> work;  // by mapping index
  for (int i = 1; i < dict->location_table_size(); ++i) {
    const auto& loc = dict->location_table(i);
    const int32_t mi = loc.mapping_index();
    if (loc.lines_size() > 0 || loc.address() == 0 || mi <= 0 || mi >= dict->mapping_table_size()) continue;
    work[mi].locations.push_back(i);
  }
  if (work.empty()) return counts;
  DictionaryBuilder builder(dict);
  for (auto& [mi, w] : work) {
    LocateResult m = symbolizer.module(binaryRefOf(*dict, dict->mapping_table(mi)));
    if (!m.module) {
      (m.status == LookupStatus::kError ? counts.errors : counts.not_found) += w.locations.size();
      continue;
    }
    const otlp::Mapping mapping = dict->mapping_table(mi);
    const MappingRange range{mapping.memory_start(), mapping.memory_limit(), mapping.file_offset()};
    for (int li : w.locations) {
      otlp::Location* loc = dict->mutable_location_table(li);
      FramesPtr frames =
          Symbolizer::symbolize(*m.module, loc->address(), kindFor(mode, mapping, loc->address()), range);
      if (!frames || frames->empty()) {
        ++counts.not_found;
        continue;
      }
      addLines(builder, *frames, *loc, w);
      w.any_symbolized = true;
      ++counts.symbolized;
    }
    if (w.any_symbolized) markMapping(builder, *dict->mutable_mapping_table(mi), w, m.module->hasDwarf());
  }
  return counts;
}

}  // namespace proflow::symbolize
