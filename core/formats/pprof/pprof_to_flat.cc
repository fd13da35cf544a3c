#include "core/formats/pprof/pprof_to_flat.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/flat/flat_merge.h"
#include "core/formats/pprof/id_map.h"
#include "core/formats/pprof/pprof_ids.h"
#include "core/formats/varint_bits.h"
#include "core/util/index_set.h"
#include "core/util/utf8.h"

namespace proflow::pprof {
namespace {

using internal::IdMap;

// Nested AnyValue messages (ArrayValue / KeyValueList) are kept encoded in the flat model: a small
// writer for the few the conversion makes (field numbers of common.v1).
namespace nested {
enum : uint32_t { kString = 1, kBool = 2, kInt = 3, kArray = 5, kKvList = 6 };
void varint(std::string& out, uint64_t v) {
  char bytes[10];
  out.append(bytes, formats::putVarint(bytes, v));
}
void len(std::string& out, uint32_t field, std::string_view payload) {
  varint(out, field << 3 | 2);
  varint(out, payload.size());
  out.append(payload);
}
void number(std::string& out, uint32_t field, uint64_t v) {
  varint(out, field << 3);
  varint(out, v);
}
// One element of a repeated AnyValue (ArrayValue.values), holding `value` (an encoded AnyValue).
void element(std::string& out, std::string_view any_value) { len(out, 1, any_value); }
std::string stringValue(std::string_view s) {
  std::string v;
  len(v, kString, s);
  return v;
}
std::string numberValue(uint32_t field, uint64_t n) {
  std::string v;
  number(v, field, n);
  return v;
}
}  // namespace nested

struct LabelKey {
  int64_t key, str, num, unit;
  bool operator==(const LabelKey&) const = default;
};
uint64_t labelHash(const LabelKey& k) {
  uint64_t h = static_cast<uint64_t>(k.key) * 0x9E3779B97F4A7C15ull;
  for (int64_t part : {k.str, k.num, k.unit}) h = (h ^ static_cast<uint64_t>(part)) * 0xff51afd7ed558ccdull;
  return h ^ (h >> 29);  // the set probes by the low bits
}

// One distinct label, worked out once: its attribute and what it says about links and time.
struct LabelFacts {
  int32_t attribute = 0;
  LinkRole role = LinkRole::kNone;
  int span_priority = 99;
  std::optional<IdBytes> id;
  std::optional<int64_t> timestamp;
};

class FlatConverter {
 public:
  FlatConverter(const ProfileView& p, const PprofToOtlpOptions& o, flat::Batch* out)
      : p_(p), o_(o), b_(*out), dict_(out), strings_(static_cast<size_t>(p.string_table_size()), -1),
        mappings_(p.mapping_size()), functions_(p.function_size()), locations_(p.location_size()) {}

  void run() {
    reserve();
    convertMappings();
    convertFunctions();
    convertLocations();
    const uint32_t first_profile = static_cast<uint32_t>(b_.profiles.size());
    addScope();
    flat::Range profile_attributes = profileAttributes();
    for (int k = 0; k < p_.sample_type_size(); ++k) addProfile(k, profile_attributes);
    convertSamples(first_profile);
    if (o_.keep_original_payload && p_.sample_type_size() > 0) {
      flat::Profile& first = b_.profiles[first_profile];
      first.original_payload_format = b_.addBytes("pprof");
      first.original_payload = b_.addBytes(o_.original_payload.empty() ? p_.raw() : o_.original_payload);
    }
  }

 private:
  void reserve() {
    const size_t samples = static_cast<size_t>(p_.sample_size()) * static_cast<size_t>(p_.sample_type_size());
    b_.arena.reserve(b_.arena.size() + p_.raw().size() / 2);
    // Distinct labels (attributes) and span/trace pairs (links) are at most the labels, and in
    // practice no more than the strings that spell them (span ids are strings in the table).
    const size_t label_guess = std::min(p_.total_labels(), static_cast<size_t>(p_.string_table_size()));
    dict_.reserve({.strings = static_cast<size_t>(p_.string_table_size()),
                   .functions = static_cast<size_t>(p_.function_size()),
                   .mappings = static_cast<size_t>(p_.mapping_size()),
                   .locations = static_cast<size_t>(p_.location_size()),
                   .stacks = static_cast<size_t>(p_.sample_size()),
                   .attributes = label_guess,
                   .links = o_.trace_links ? std::min(label_guess, static_cast<size_t>(p_.sample_size())) : 0});
    auto& s = b_.samples;
    for (auto* column : {&s.stack_index, &s.link_index}) column->reserve(column->size() + samples);
    for (auto* column : {&s.attributes, &s.values, &s.timestamps}) column->reserve(column->size() + samples);
    b_.values.reserve(b_.values.size() + samples);
    // Stacks and attribute lists go to the index column: at most every sample's location ids and
    // labels (fewer when they repeat). Reserved, the column is written once instead of copied at
    // each doubling; capacity never used is never touched: address space, not memory.
    b_.indices.reserve(b_.indices.size() + p_.total_location_ids() + p_.total_labels());
  }

  std::string_view pstr(int64_t i) const { return p_.string_table(static_cast<int>(i)); }

  // OTLP strings are UTF-8: invalid bytes become U+FFFD.
  std::string_view ustr(int64_t i) {
    std::string_view raw = pstr(i);
    if (isValidUtf8(raw)) return raw;
    auto [it, inserted] = sanitized_.try_emplace(i);
    if (inserted) it->second = sanitizeUtf8(raw);
    return it->second;
  }

  // pprof string index -> dictionary string index, interned on first use.
  int32_t s(int64_t i) {
    int32_t& slot = strings_[static_cast<size_t>(i)];
    if (slot < 0) slot = dict_.string(ustr(i));
    return slot;
  }

  int32_t scalarAttribute(std::string_view key, flat::ValueKind kind, int64_t scalar, std::string_view unit = {}) {
    flat::Attribute a;
    a.key_strindex = dict_.string(key);
    if (!unit.empty()) a.unit_strindex = dict_.string(unit);
    a.value.kind = kind;
    a.value.scalar = scalar;
    return dict_.attribute(a);
  }
  int32_t bytesAttribute(std::string_view key, flat::ValueKind kind, std::string_view bytes) {
    flat::Attribute a;
    a.key_strindex = dict_.string(key);
    a.value.kind = kind;
    a.value.bytes = b_.addBytes(bytes);
    return dict_.attribute(a);
  }
  int32_t stringAttribute(std::string_view key, std::string_view value) {
    return bytesAttribute(key, flat::ValueKind::kString, value);
  }
  int32_t boolAttribute(std::string_view key) { return scalarAttribute(key, flat::ValueKind::kBool, 1); }

  flat::Range appendIndices(const std::vector<int32_t>& list) {
    flat::Range r{static_cast<uint32_t>(b_.indices.size()), static_cast<uint32_t>(list.size())};
    b_.indices.insert(b_.indices.end(), list.begin(), list.end());
    return r;
  }

  void convertMappings() {
    IdMap referenced(p_.mapping_size());
    for (const auto& l : p_.location()) referenced.set(l.mapping_id(), 1);
    std::vector<int32_t> attrs;
    for (int i = 0; i < p_.mapping_size(); ++i) {
      const auto& m = p_.mapping(i);
      if (referenced.get(m.id()) < 0) {
        unreferenced_.push_back(i);
        continue;
      }
      flat::Mapping fm;
      fm.memory_start = m.memory_start();
      fm.memory_limit = m.memory_limit();
      fm.file_offset = m.file_offset();
      fm.filename_strindex = s(m.filename());
      attrs.clear();
      const std::string build_id = buildId(m);
      if (auto kind = classifyBuildId(build_id); kind != BuildIdKind::kNone)
        attrs.push_back(stringAttribute(buildIdAttribute(kind), build_id));
      if (m.has_functions()) attrs.push_back(boolAttribute(attr::kHasFunctions));
      if (m.has_filenames()) attrs.push_back(boolAttribute(attr::kHasFilenames));
      if (m.has_line_numbers()) attrs.push_back(boolAttribute(attr::kHasLineNumbers));
      if (m.has_inline_frames()) attrs.push_back(boolAttribute(attr::kHasInlineFrames));
      mappings_.set(m.id(), dict_.mapping(fm, attrs));
    }
  }

  // Some producers write the raw note bytes instead of hex: hex them so the id stays usable.
  std::string buildId(const view::Mapping& m) const {
    std::string_view raw = pstr(m.build_id());
    return isValidUtf8(raw) ? std::string(raw) : toHex(raw);
  }

  void convertFunctions() {
    for (const auto& f : p_.function()) {
      flat::Function ff;  // strings interned in this order: name, system name, file
      ff.name_strindex = s(f.name());
      ff.start_line = f.start_line();
      ff.system_name_strindex = s(f.system_name());
      ff.filename_strindex = s(f.filename());
      functions_.set(f.id(), dict_.function(ff));
    }
  }

  void convertLocations() {
    std::vector<flat::Line> lines;
    std::vector<int32_t> attrs;
    for (const auto& l : p_.location()) {
      flat::Location fl;
      if (l.mapping_id() != 0) fl.mapping_index = mappings_.get(l.mapping_id());
      fl.address = l.address();
      lines.clear();
      for (const auto& line : l.line())
        lines.push_back({.line = line.line(), .column = line.column(),
                         .function_index = line.function_id() != 0 ? functions_.get(line.function_id()) : 0});
      attrs.clear();
      if (l.is_folded()) attrs.push_back(boolAttribute(attr::kIsFolded));
      locations_.set(l.id(), dict_.location(fl, lines, attrs));
    }
  }

  void addScopeAttribute(std::string_view key, flat::ValueKind kind, std::string_view encoded) {
    flat::KeyValue kv;
    kv.key = b_.addBytes(key);
    kv.value.kind = kind;
    kv.value.bytes = b_.addBytes(encoded);
    b_.key_values.push_back(kv);
  }

  void addScope() {
    uint32_t resource = static_cast<uint32_t>(o_.resource_index);
    if (o_.resource_index < 0) {
      flat::Resource r;
      r.present = !o_.resource_attributes.empty();
      r.attributes.begin = static_cast<uint32_t>(b_.key_values.size());
      for (const auto& [k, v] : o_.resource_attributes) {
        flat::KeyValue kv;
        kv.key = b_.addBytes(k);
        kv.value.kind = flat::ValueKind::kString;
        kv.value.bytes = b_.addBytes(v);
        b_.key_values.push_back(kv);
      }
      r.attributes.size = static_cast<uint32_t>(o_.resource_attributes.size());
      resource = static_cast<uint32_t>(b_.resources.size());
      b_.resources.push_back(r);
    }
    flat::Scope scope;
    scope.present = true;
    scope.name = b_.addBytes(o_.scope_name);
    scope.version = b_.addBytes(o_.scope_version);
    scope.attributes.begin = static_cast<uint32_t>(b_.key_values.size());
    std::string order;
    for (int k = 0; k < p_.sample_type_size(); ++k)
      nested::element(order, nested::numberValue(nested::kInt, static_cast<uint64_t>(k)));
    addScopeAttribute(attr::kSampleTypeOrder, flat::ValueKind::kArray, order);
    if (!unreferenced_.empty())
      addScopeAttribute(attr::kUnreferencedMappings, flat::ValueKind::kArray, unreferencedMappings());
    if (p_.default_sample_type() != 0) {
      flat::KeyValue kv;
      kv.key = b_.addBytes(attr::kDefaultSampleType);
      kv.value.kind = flat::ValueKind::kString;
      kv.value.bytes = b_.addBytes(ustr(p_.default_sample_type()));
      b_.key_values.push_back(kv);
    }
    scope.attributes.size = static_cast<uint32_t>(b_.key_values.size()) - scope.attributes.begin;
    scope.profiles = {static_cast<uint32_t>(b_.profiles.size()), static_cast<uint32_t>(p_.sample_type_size())};
    b_.addScope(resource, scope);
  }

  // The kvlists of proflow.pprof.unreferenced_mappings, as an encoded ArrayValue.
  std::string unreferencedMappings() {
    std::string array, fields, value;
    for (int i : unreferenced_) {
      const auto& m = p_.mapping(i);
      fields.clear();
      auto field = [&](std::string_view key, const std::string& any_value) {
        value.clear();
        nested::len(value, 1, key);
        nested::len(value, 2, any_value);
        nested::len(fields, 1, value);
      };
      field("memory_start", nested::numberValue(nested::kInt, m.memory_start()));
      field("memory_limit", nested::numberValue(nested::kInt, m.memory_limit()));
      field("file_offset", nested::numberValue(nested::kInt, m.file_offset()));
      field("filename", nested::stringValue(ustr(m.filename())));
      field("build_id", nested::stringValue(buildId(m)));
      field("has_functions", nested::numberValue(nested::kBool, m.has_functions()));
      field("has_filenames", nested::numberValue(nested::kBool, m.has_filenames()));
      field("has_line_numbers", nested::numberValue(nested::kBool, m.has_line_numbers()));
      field("has_inline_frames", nested::numberValue(nested::kBool, m.has_inline_frames()));
      std::string kvlist;
      nested::len(kvlist, nested::kKvList, fields);
      nested::element(array, kvlist);
    }
    return array;
  }

  // drop/keep_frames, doc_url, comments: the same list on every profile of the scope, interned
  // after the first profile's sample types.
  flat::Range profileAttributes() {
    if (p_.sample_type_size() == 0) return {};
    // Interning order for the first profile: sample type, period type, attributes.
    s(p_.sample_type(0).type());
    s(p_.sample_type(0).unit());
    if (p_.has_period_type()) s(p_.period_type().type()), s(p_.period_type().unit());
    std::vector<int32_t> attrs;
    auto add_string = [&](std::string_view key, int64_t strindex) {
      if (strindex != 0 && !pstr(strindex).empty()) attrs.push_back(stringAttribute(key, ustr(strindex)));
    };
    add_string(attr::kDropFrames, p_.drop_frames());
    add_string(attr::kKeepFrames, p_.keep_frames());
    add_string(attr::kDocUrl, p_.doc_url());
    if (p_.comment_size() > 0) {
      std::string array;
      for (int64_t c : p_.comment()) nested::element(array, nested::stringValue(ustr(c)));
      attrs.push_back(bytesAttribute(attr::kComment, flat::ValueKind::kArray, array));
    }
    return appendIndices(attrs);
  }

  void addProfile(int k, flat::Range attributes) {
    flat::Profile prof;
    prof.sample_type = {.present = true, .type_strindex = s(p_.sample_type(k).type()),
                        .unit_strindex = s(p_.sample_type(k).unit())};
    prof.time_unix_nano = static_cast<uint64_t>(p_.time_nanos());
    prof.duration_nano = static_cast<uint64_t>(p_.duration_nanos());
    if (p_.has_period_type())
      prof.period_type = {.present = true, .type_strindex = s(p_.period_type().type()),
                          .unit_strindex = s(p_.period_type().unit())};
    prof.period = p_.period();
    prof.attributes = attributes;
    b_.profiles.push_back(prof);
  }

  int32_t labelSlot(const view::Label& l) {
    LabelKey key{l.key(), l.str(), l.str() != 0 ? 0 : l.num(), l.str() != 0 ? 0 : l.num_unit()};
    return label_set_.intern(
        labelHash(key), [&](int32_t i) { return label_keys_[static_cast<size_t>(i)] == key; },
        [&] {
          label_keys_.push_back(key);
          label_facts_.push_back(describeLabel(l));
          return static_cast<int32_t>(label_keys_.size() - 1);
        });
  }

  LabelFacts describeLabel(const view::Label& l) {
    LabelFacts facts;
    // Same rule as pprof readers: a label with a string is a string label, otherwise numeric.
    const bool is_str = l.str() != 0;
    facts.attribute = is_str ? stringAttribute(ustr(l.key()), ustr(l.str()))
                             : scalarAttribute(ustr(l.key()), flat::ValueKind::kInt, l.num(), ustr(l.num_unit()));
    std::string_view key = pstr(l.key());
    if (!is_str && key == kTimestampLabel) facts.timestamp = l.num();
    if (!o_.trace_links) return facts;
    facts.role = linkRoleOf(key);
    if (facts.role == LinkRole::kSpan) facts.span_priority = spanKeyPriority(key);
    if (facts.role == LinkRole::kSpan || facts.role == LinkRole::kRootSpan)
      facts.id = is_str ? parseSpanId(pstr(l.str())) : spanIdFromNumber(l.num());
    else if (facts.role == LinkRole::kTrace)
      facts.id = is_str ? parseTraceId(pstr(l.str())) : traceIdFromNumber(l.num());
    return facts;
  }

  // The sample's link and timestamp from its labels (precedence in conversion.h).
  int32_t linkOf(const std::vector<int32_t>& slots, std::optional<int64_t>* timestamp) {
    const IdBytes *span = nullptr, *root_span = nullptr, *trace = nullptr;
    int span_priority = 99;
    for (int32_t slot : slots) {
      const LabelFacts& f = label_facts_[static_cast<size_t>(slot)];
      if (f.timestamp) *timestamp = f.timestamp;
      if (!f.id) continue;
      if (f.role == LinkRole::kSpan && f.span_priority < span_priority)
        span = &*f.id, span_priority = f.span_priority;
      else if (f.role == LinkRole::kRootSpan && root_span == nullptr)
        root_span = &*f.id;
      else if (f.role == LinkRole::kTrace && trace == nullptr)
        trace = &*f.id;
    }
    if (span == nullptr) span = root_span;
    if (!o_.trace_links || (span == nullptr && trace == nullptr)) return 0;
    static constexpr char kZeros[16] = {};
    return dict_.link(trace ? trace->view() : std::string_view(kZeros, 16),
                      span ? span->view() : std::string_view(kZeros, 8));
  }

  // Rows of the first profile are built from the pprof samples; every other profile repeats them
  // with its own value (the attribute list and timestamps are shared ranges).
  void convertSamples(uint32_t first_profile) {
    auto& cols = b_.samples;
    const auto n = static_cast<uint32_t>(p_.sample_size());
    const auto first_row = static_cast<uint32_t>(cols.size());
    std::vector<int32_t> stack, attrs, slots;
    for (const auto& smp : p_.sample()) {
      stack.clear();
      smp.location_id().forEach([&](uint64_t id) { stack.push_back(locations_.get(id)); });
      cols.stack_index.push_back(dict_.stack(stack));
      slots.clear();
      for (const auto& l : smp.label()) slots.push_back(labelSlot(l));
      attrs.clear();
      for (int32_t slot : slots) attrs.push_back(label_facts_[static_cast<size_t>(slot)].attribute);
      std::optional<int64_t> timestamp;
      cols.link_index.push_back(linkOf(slots, &timestamp));
      cols.attributes.push_back(appendIndices(attrs));
      flat::Range ts{static_cast<uint32_t>(b_.timestamps.size()), 0};
      if (timestamp) b_.timestamps.push_back(static_cast<uint64_t>(*timestamp)), ts.size = 1;
      cols.timestamps.push_back(ts);
    }
    const auto types = static_cast<uint32_t>(p_.sample_type_size());
    for (uint32_t k = 0; k < types; ++k) {
      const uint32_t begin = first_row + k * n;
      b_.profiles[first_profile + k].samples = {begin, n};
      if (k > 0) {
        for (auto* column : {&cols.stack_index, &cols.link_index})
          column->insert(column->end(), column->begin() + first_row, column->begin() + first_row + n);
        for (auto* column : {&cols.attributes, &cols.timestamps})
          column->insert(column->end(), column->begin() + first_row, column->begin() + first_row + n);
      }
      for (const auto& smp : p_.sample()) {
        cols.values.push_back({static_cast<uint32_t>(b_.values.size()), 1});
        b_.values.push_back(smp.value(static_cast<int>(k)));
      }
    }
    if (types == 0) {  // no profile owns the rows: drop them
      for (auto* column : {&cols.stack_index, &cols.link_index}) column->resize(first_row);
      cols.attributes.resize(first_row);
      cols.timestamps.resize(first_row);
    }
  }

  const ProfileView& p_;
  const PprofToOtlpOptions& o_;
  flat::Batch& b_;
  flat::DictionaryIndex dict_;
  std::vector<int32_t> strings_;
  IdMap mappings_, functions_, locations_;
  IndexSet label_set_;
  std::vector<LabelKey> label_keys_;
  std::vector<LabelFacts> label_facts_;
  std::vector<int> unreferenced_;  // mapping positions
  std::unordered_map<int64_t, std::string> sanitized_;
};

Status checkLimits(const ProfileView& p, const PprofToOtlpOptions& options, const flat::Batch& out) {
  const uint64_t total = static_cast<uint64_t>(p.sample_size()) * static_cast<uint64_t>(p.sample_type_size());
  if (total > options.max_otlp_samples)
    return Status::tooLarge("pprof: " + std::to_string(p.sample_size()) + " samples x " +
                            std::to_string(p.sample_type_size()) + " sample types = " + std::to_string(total) +
                            " OTLP samples, above the limit of " + std::to_string(options.max_otlp_samples));
  if (options.resource_index >= static_cast<int>(out.resources.size()))
    return Status::invalid("pprof: resource_index " + std::to_string(options.resource_index) + " out of range");
  // Offsets of the flat model are 32-bit: the strings (at most the input, twice when sanitized and
  // kept as payload) must fit the arena.
  const uint64_t arena = out.arena.size() + 3 * p.raw().size() + options.original_payload.size() + (1u << 20);
  if (arena > UINT32_MAX || total > UINT32_MAX / 2)
    return Status::tooLarge("pprof: " + std::to_string(p.raw().size()) +
                            " bytes uncompressed is above what one flat batch holds (4 GiB)");
  return {};
}

// The checks, in this order: structure and limits, memory, sizes.
Status convertValid(const ProfileView& p, const PprofToOtlpOptions& options, flat::Batch* out, size_t held_bytes) {
  if (auto st = reserveConversionMemory(p, options, held_bytes); !st) return st;
  if (auto st = checkLimits(p, options, *out); !st) return st;
  FlatConverter(p, options, out).run();
  return {};
}

}  // namespace

Status pprofToFlat(const ProfileView& p, const PprofToOtlpOptions& options, flat::Batch* out,
                   const ProfileLimits& limits) {
  if (auto st = validateProfile(p, limits); !st) return st;  // the converter indexes tables without checks
  return convertValid(p, options, out, 0);
}

Status pprofToFlat(const Profile& p, const PprofToOtlpOptions& options, flat::Batch* out) {
  if (auto st = validateProfile(p); !st) return st;
  // The converter reads wire bytes: the message's serialization (also what is kept as the original
  // payload).
  const std::string raw = p.SerializeAsString();
  ProfileView view;
  if (auto st = parseProfileView(raw, &view); !st) return st;
  return convertValid(view, options, out, 0);
}

Status pprofBytesToFlat(std::string_view data, const PprofToOtlpOptions& options, flat::Batch* out,
                        const DecodeOptions& decode) {
  std::string raw;
  if (auto st = decompressProfile(data, &raw, decode.limits); !st) return st;
  ProfileView view;
  if (auto st = parseProfileView(raw, &view); !st) return st;
  if (auto st = validateProfile(view, decode.profile_limits); !st) return st;
  if (!options.keep_original_payload || !options.original_payload.empty())
    return convertValid(view, options, out, raw.size());
  PprofToOtlpOptions with_payload = options;
  with_payload.original_payload = data;
  return convertValid(view, with_payload, out, raw.size() + data.size());
}

}  // namespace proflow::pprof
