#include "core/flat/flat_merge.h"

#include <algorithm>
#include <cstring>

#include "core/flat/flat_nested.h"
#include "core/model/otlp_types.h"

namespace proflow::flat {
namespace {

class Hasher {
 public:
  void add(uint64_t v) {
    h_ = (h_ ^ v) * 0x9E3779B97F4A7C15ull;
    h_ ^= h_ >> 32;
  }
  template <class T>
  void addAll(std::span<const T> values) {
    add(values.size());
    add(std::hash<std::string_view>{}(
        std::string_view(reinterpret_cast<const char*>(values.data()), values.size_bytes())));
  }
  uint64_t done() const {
    uint64_t x = h_ ^ (h_ >> 33);
    x *= 0xff51afd7ed558ccdull;
    return x ^ (x >> 33);
  }

 private:
  uint64_t h_ = 0x243F6A8885A308D3ull;
};

template <class T>
bool sameSpan(std::span<const T> a, std::span<const T> b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}
bool sameLines(std::span<const Line> a, std::span<const Line> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].function_index != b[i].function_index || a[i].line != b[i].line || a[i].column != b[i].column)
      return false;
  return true;
}

uint64_t functionHash(const Function& f) {
  Hasher h;
  h.add(static_cast<uint32_t>(f.name_strindex));
  h.add(static_cast<uint32_t>(f.system_name_strindex));
  h.add(static_cast<uint32_t>(f.filename_strindex));
  h.add(static_cast<uint64_t>(f.start_line));
  return h.done();
}
bool sameFunction(const Function& a, const Function& b) {
  return a.name_strindex == b.name_strindex && a.system_name_strindex == b.system_name_strindex &&
         a.filename_strindex == b.filename_strindex && a.start_line == b.start_line;
}
uint64_t mappingHash(const Mapping& m, std::span<const int32_t> attributes) {
  Hasher h;
  h.add(m.memory_start);
  h.add(m.memory_limit);
  h.add(m.file_offset);
  h.add(static_cast<uint32_t>(m.filename_strindex));
  h.addAll(attributes);
  return h.done();
}
uint64_t locationHash(const Location& l, std::span<const Line> lines, std::span<const int32_t> attributes) {
  Hasher h;
  h.add(static_cast<uint32_t>(l.mapping_index));
  h.add(l.address);
  h.add(lines.size());
  for (const Line& line : lines) {
    h.add(static_cast<uint32_t>(line.function_index));
    h.add(static_cast<uint64_t>(line.line));
    h.add(static_cast<uint64_t>(line.column));
  }
  h.addAll(attributes);
  return h.done();
}
uint64_t stackHash(std::span<const int32_t> locations) {
  Hasher h;
  h.addAll(locations);
  return h.done();
}
uint64_t stringHash(std::string_view s) { return std::hash<std::string_view>{}(s); }
uint64_t linkHash(std::string_view trace_id, std::string_view span_id) {
  Hasher h;
  h.add(stringHash(trace_id));
  h.add(stringHash(span_id));
  return h.done();
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// DictionaryIndex

DictionaryIndex::DictionaryIndex(Batch* batch) : b_(batch) {
  Batch& b = *b_;
  b.has_dictionary = true;
  if (b.strings.empty()) b.strings.push_back(Bytes{});
  if (b.mappings.empty()) b.mappings.emplace_back();
  if (b.locations.empty()) b.locations.emplace_back();
  if (b.functions.empty()) b.functions.emplace_back();
  if (b.links.empty()) b.links.push_back(Link{b.addBytes(std::string(16, '\0')), b.addBytes(std::string(8, '\0'))});
  if (b.attributes.empty()) b.attributes.emplace_back();
  if (b.stacks.empty()) b.stacks.emplace_back();

}

// A table's entries are indexed on the first use of that table: a caller interning only strings and
// attributes (an attribute edit) does not pay for hashing every location and stack. Existing entries
// are indexed without comparing them: of duplicates a producer may have sent, the first one sits
// earlier on their common probe path, so lookups find it.
IndexSet& DictionaryIndex::ready(Table t) {
  if (built_ & t) return setOf(t);
  built_ |= t;
  const Batch& b = *b_;
  auto add = [](IndexSet& set, uint64_t hash, size_t i) {
    set.intern(hash, [](int32_t) { return false; }, [i] { return static_cast<int32_t>(i); });
  };
  switch (t) {
    case kStrings:
      for (size_t i = 0; i < b.strings.size(); ++i) add(strings_, stringHash(b.view(b.strings[i])), i);
      break;
    case kFunctions:
      for (size_t i = 1; i < b.functions.size(); ++i) add(functions_, functionHash(b.functions[i]), i);
      break;
    case kMappings:
      for (size_t i = 1; i < b.mappings.size(); ++i)
        add(mappings_, mappingHash(b.mappings[i], b.indexList(b.mappings[i].attributes)), i);
      break;
    case kLocations:
      for (size_t i = 1; i < b.locations.size(); ++i) {
        const Location& l = b.locations[i];
        add(locations_, locationHash(l, Batch::slice(b.lines, l.lines), b.indexList(l.attributes)), i);
      }
      break;
    case kStacks:
      for (size_t i = 0; i < b.stacks.size(); ++i) add(stacks_, stackHash(b.indexList(b.stacks[i].locations)), i);
      break;
    case kLinks:
      for (size_t i = 0; i < b.links.size(); ++i)
        add(links_, linkHash(b.view(b.links[i].trace_id), b.view(b.links[i].span_id)), i);
      break;
    case kAttributes: {
      std::string identity;
      for (size_t i = 1; i < b.attributes.size(); ++i) {
        attributeIdentity(static_cast<int32_t>(i), identity);
        add(attributes_, stringHash(identity), i);
      }
      break;
    }
  }
  return setOf(t);
}

IndexSet& DictionaryIndex::setOf(Table t) {
  switch (t) {
    case kStrings: return strings_;
    case kFunctions: return functions_;
    case kMappings: return mappings_;
    case kLocations: return locations_;
    case kStacks: return stacks_;
    case kLinks: return links_;
    case kAttributes: break;
  }
  return attributes_;
}

int32_t DictionaryIndex::string(std::string_view s) {
  Batch& b = *b_;
  return ready(kStrings).intern(stringHash(s), [&](int32_t i) { return b.string(i) == s; }, [&] {
    b.strings.push_back(b.addBytes(s));
    return static_cast<int32_t>(b.strings.size() - 1);
  });
}

int32_t DictionaryIndex::function(const Function& f) {
  Batch& b = *b_;
  return ready(kFunctions).intern(functionHash(f), [&](int32_t i) { return sameFunction(b.functions[i], f); }, [&] {
    b.functions.push_back(f);
    return static_cast<int32_t>(b.functions.size() - 1);
  });
}

namespace {
Range appendList(std::vector<int32_t>& column, std::span<const int32_t> list) {
  Range r{static_cast<uint32_t>(column.size()), static_cast<uint32_t>(list.size())};
  column.insert(column.end(), list.begin(), list.end());
  return r;
}
}  // namespace

int32_t DictionaryIndex::mapping(const Mapping& m, std::span<const int32_t> attributes) {
  Batch& b = *b_;
  return ready(kMappings).intern(
      mappingHash(m, attributes),
      [&](int32_t i) {
        const Mapping& x = b.mappings[i];
        return x.memory_start == m.memory_start && x.memory_limit == m.memory_limit && x.file_offset == m.file_offset &&
               x.filename_strindex == m.filename_strindex && sameSpan(b.indexList(x.attributes), attributes);
      },
      [&] {
        Mapping copy = m;
        copy.attributes = appendList(b.indices, attributes);
        b.mappings.push_back(copy);
        return static_cast<int32_t>(b.mappings.size() - 1);
      });
}

int32_t DictionaryIndex::location(const Location& l, std::span<const Line> lines, std::span<const int32_t> attributes) {
  Batch& b = *b_;
  return ready(kLocations).intern(
      locationHash(l, lines, attributes),
      [&](int32_t i) {
        const Location& x = b.locations[i];
        return x.mapping_index == l.mapping_index && x.address == l.address &&
               sameLines(Batch::slice(b.lines, x.lines), lines) && sameSpan(b.indexList(x.attributes), attributes);
      },
      [&] {
        Location copy = l;
        copy.lines = Range{static_cast<uint32_t>(b.lines.size()), static_cast<uint32_t>(lines.size())};
        b.lines.insert(b.lines.end(), lines.begin(), lines.end());
        copy.attributes = appendList(b.indices, attributes);
        b.locations.push_back(copy);
        return static_cast<int32_t>(b.locations.size() - 1);
      });
}

int32_t DictionaryIndex::stack(std::span<const int32_t> locations) {
  Batch& b = *b_;
  return ready(kStacks).intern(stackHash(locations), [&](int32_t i) { return sameSpan(b.indexList(b.stacks[i].locations), locations); },
                        [&] {
                          b.stacks.push_back(Stack{appendList(b.indices, locations)});
                          return static_cast<int32_t>(b.stacks.size() - 1);
                        });
}

int32_t DictionaryIndex::link(std::string_view trace_id, std::string_view span_id) {
  Batch& b = *b_;
  return ready(kLinks).intern(
      linkHash(trace_id, span_id),
      [&](int32_t i) { return b.view(b.links[i].trace_id) == trace_id && b.view(b.links[i].span_id) == span_id; },
      [&] {
        b.links.push_back(Link{b.addBytes(trace_id), b.addBytes(span_id)});
        return static_cast<int32_t>(b.links.size() - 1);
      });
}

void DictionaryIndex::attributeIdentity(int32_t i, std::string& out) const {
  const Batch& b = *b_;
  const Attribute& a = b.attributes[static_cast<size_t>(i)];
  out.clear();
  putString(out, b.string(a.key_strindex));
  putString(out, b.string(a.unit_strindex));
  appendValueIdentity(out, a.value, b, [&](int32_t s) { return b.string(s); });
}

int32_t DictionaryIndex::attribute(const std::string& identity, const std::function<int32_t()>& make) {
  return ready(kAttributes).intern(
      stringHash(identity),
      [&](int32_t i) {
        attributeIdentity(i, cmp_);
        return cmp_ == identity;
      },
      make);
}

void DictionaryIndex::reserve(const Expected& e) {
  Batch& b = *b_;
  auto grow = [](IndexSet& set, auto& table, size_t more) {
    set.reserve(table.size() + more);
    table.reserve(table.size() + more);
  };
  grow(strings_, b.strings, e.strings);
  grow(functions_, b.functions, e.functions);
  grow(mappings_, b.mappings, e.mappings);
  grow(locations_, b.locations, e.locations);
  grow(stacks_, b.stacks, e.stacks);
  grow(attributes_, b.attributes, e.attributes);
  grow(links_, b.links, e.links);
}

int32_t DictionaryIndex::attribute(const Attribute& candidate) {
  Batch& b = *b_;
  identity_.clear();
  putString(identity_, b.string(candidate.key_strindex));
  putString(identity_, b.string(candidate.unit_strindex));
  appendValueIdentity(identity_, candidate.value, b, [&](int32_t s) { return b.string(s); });
  return attribute(identity_, [&] {
    b.attributes.push_back(candidate);
    return static_cast<int32_t>(b.attributes.size() - 1);
  });
}

// ---------------------------------------------------------------------------------------------
// Merger

// Maps indexes of one source batch to the destination, lazily and memoized, in the order
// RequestMerger::Remap visits them (so both produce the same tables).
class Merger::Remap {
 public:
  Remap(const Batch& src, DictionaryIndex& dict)
      : src_(src),
        dict_(dict),
        dst_(dict.batch()),
        strings_(src.strings.size(), -1),
        attributes_(src.attributes.size(), -1),
        functions_(src.functions.size(), -1),
        mappings_(src.mappings.size(), -1),
        locations_(src.locations.size(), -1),
        stacks_(src.stacks.size(), -1),
        links_(src.links.size(), -1) {}

  int32_t str(int32_t i) {
    if (i <= 0 || static_cast<size_t>(i) >= strings_.size()) return 0;
    int32_t& m = strings_[static_cast<size_t>(i)];
    if (m < 0) m = dict_.string(src_.string(i));
    return m;
  }

  Bytes bytes(Bytes b) { return b.size == 0 ? Bytes{} : dst_.addBytes(src_.view(b)); }

  // A source value re-pointed into the destination (its strings copied to the destination arena).
  Value value(const Value& v) {
    Value out = v;
    switch (v.kind) {
      case ValueKind::kStrindex: out.scalar = str(v.strindex()); break;
      case ValueKind::kString:
      case ValueKind::kBytes: out.bytes = bytes(v.bytes); break;
      case ValueKind::kArray:
      case ValueKind::kKvList:
        out.bytes = v.nested_refs ? dst_.addBytes(remapNested(v)) : bytes(v.bytes);
        break;
      default: break;
    }
    return out;
  }

  // Interns the strings a value references, in RequestMerger's order, without copying the value.
  void touchStrings(const Value& v) {
    if (v.kind == ValueKind::kStrindex) str(v.strindex());
    if ((v.kind == ValueKind::kArray || v.kind == ValueKind::kKvList) && v.nested_refs) nested_ = remapNested(v);
  }

  KeyValue keyValue(const KeyValue& kv) {
    KeyValue out;
    out.key = bytes(kv.key);
    out.key_strindex = kv.key_strindex != 0 ? str(kv.key_strindex) : 0;
    out.value = value(kv.value);
    return out;
  }

  int32_t attribute(int32_t i) {
    if (i <= 0 || static_cast<size_t>(i) >= attributes_.size()) return 0;
    int32_t& m = attributes_[static_cast<size_t>(i)];
    if (m >= 0) return m;
    const Attribute& a = src_.attributes[static_cast<size_t>(i)];
    Attribute candidate = a;
    candidate.key_strindex = str(a.key_strindex);
    candidate.unit_strindex = str(a.unit_strindex);
    touchStrings(a.value);
    identity_.clear();
    putString(identity_, dst_.string(candidate.key_strindex));
    putString(identity_, dst_.string(candidate.unit_strindex));
    appendValueIdentity(identity_, a.value, src_, [this](int32_t s) { return src_.string(s); });
    m = dict_.attribute(identity_, [&] {
      candidate.value = value(a.value);
      dst_.attributes.push_back(candidate);
      return static_cast<int32_t>(dst_.attributes.size() - 1);
    });
    return m;
  }

  // Remaps a list of attribute indexes into `out` (replacing its content).
  void attributes(std::span<const int32_t> list, std::vector<int32_t>& out) {
    out.clear();
    for (int32_t a : list) out.push_back(attribute(a));
  }

  int32_t function(int32_t i) {
    if (i <= 0 || static_cast<size_t>(i) >= functions_.size()) return 0;
    int32_t& m = functions_[static_cast<size_t>(i)];
    if (m < 0) {
      Function f = src_.functions[static_cast<size_t>(i)];
      f.name_strindex = str(f.name_strindex);
      f.system_name_strindex = str(f.system_name_strindex);
      f.filename_strindex = str(f.filename_strindex);
      m = dict_.function(f);
    }
    return m;
  }

  int32_t mapping(int32_t i) {
    if (i <= 0 || static_cast<size_t>(i) >= mappings_.size()) return 0;
    int32_t& m = mappings_[static_cast<size_t>(i)];
    if (m < 0) {
      Mapping mp = src_.mappings[static_cast<size_t>(i)];
      mp.filename_strindex = str(mp.filename_strindex);
      attributes(src_.indexList(mp.attributes), attr_scratch_);
      m = dict_.mapping(mp, attr_scratch_);
    }
    return m;
  }

  int32_t location(int32_t i) {
    if (i <= 0 || static_cast<size_t>(i) >= locations_.size()) return 0;
    int32_t& m = locations_[static_cast<size_t>(i)];
    if (m < 0) {
      Location l = src_.locations[static_cast<size_t>(i)];
      l.mapping_index = mapping(l.mapping_index);
      line_scratch_.assign(src_.lines.begin() + l.lines.begin, src_.lines.begin() + l.lines.end());
      for (Line& line : line_scratch_) line.function_index = function(line.function_index);
      attributes(src_.indexList(l.attributes), attr_scratch_);
      m = dict_.location(l, line_scratch_, attr_scratch_);
    }
    return m;
  }

  int32_t stack(int32_t i) {
    if (i <= 0 || static_cast<size_t>(i) >= stacks_.size()) return 0;
    int32_t& m = stacks_[static_cast<size_t>(i)];
    if (m < 0) {
      const auto list = src_.indexList(src_.stacks[static_cast<size_t>(i)].locations);
      stack_scratch_.assign(list.begin(), list.end());
      for (int32_t& l : stack_scratch_) l = location(l);
      m = dict_.stack(stack_scratch_);
    }
    return m;
  }

  int32_t link(int32_t i) {
    if (i <= 0 || static_cast<size_t>(i) >= links_.size()) return 0;
    int32_t& m = links_[static_cast<size_t>(i)];
    if (m < 0) {
      const Link& l = src_.links[static_cast<size_t>(i)];
      m = dict_.link(src_.view(l.trace_id), src_.view(l.span_id));
    }
    return m;
  }

  ValueType valueType(ValueType vt) {
    if (vt.present) {
      vt.type_strindex = str(vt.type_strindex);
      vt.unit_strindex = str(vt.unit_strindex);
    }
    return vt;
  }

  // `rows`: the sample rows to copy (null: all of them).
  Profile profile(const Profile& p, const std::vector<bool>* rows = nullptr) {
    if (rows) {  // every row selected: the block copy below applies
      bool all = true;
      for (uint32_t row = p.samples.begin; row < p.samples.end() && all; ++row) all = row < rows->size() && (*rows)[row];
      if (all) rows = nullptr;
    }
    Profile out = p;
    out.sample_type = valueType(p.sample_type);
    out.period_type = valueType(p.period_type);
    attributes(src_.indexList(p.attributes), attr_scratch_);
    out.attributes = appendIndices(attr_scratch_);
    out.profile_id = bytes(p.profile_id);
    out.original_payload_format = bytes(p.original_payload_format);
    out.original_payload = bytes(p.original_payload);

    const SampleColumns& s = src_.samples;
    SampleColumns& d = dst_.samples;
    out.samples.begin = static_cast<uint32_t>(d.size());
    const Shift values = rows ? Shift{} : copyBlock(s.values, p.samples, src_.values, dst_.values);
    const Shift timestamps = rows ? Shift{} : copyBlock(s.timestamps, p.samples, src_.timestamps, dst_.timestamps);
    for (uint32_t row = p.samples.begin; row < p.samples.end(); ++row) {
      if (rows && (row >= rows->size() || !(*rows)[row])) continue;
      d.stack_index.push_back(stack(s.stack_index[row]));
      d.link_index.push_back(link(s.link_index[row]));
      // After stack(): remapping a stack may append mapping/location lists to `indices` too.
      const Range src_attributes = s.attributes[row];
      d.attributes.push_back(Range{static_cast<uint32_t>(dst_.indices.size()), src_attributes.size});
      for (uint32_t k = src_attributes.begin; k < src_attributes.end(); ++k)
        dst_.indices.push_back(attribute(src_.indices[k]));
      d.values.push_back(values.apply(s.values[row], src_.values, dst_.values));
      d.timestamps.push_back(timestamps.apply(s.timestamps[row], src_.timestamps, dst_.timestamps));
    }
    out.samples.size = static_cast<uint32_t>(d.size()) - out.samples.begin;
    return out;
  }

 private:
  Range appendIndices(const std::vector<int32_t>& list) {
    Range r{static_cast<uint32_t>(dst_.indices.size()), static_cast<uint32_t>(list.size())};
    dst_.indices.insert(dst_.indices.end(), list.begin(), list.end());
    return r;
  }
  // Where the values (or timestamps) of a profile's samples went in the destination: a decoded
  // profile keeps them as one block, copied at once and then shifted; otherwise row by row.
  struct Shift {
    bool block = false;
    int64_t delta = 0;
    template <class T>
    Range apply(Range r, const std::vector<T>& src, std::vector<T>& dst) const {
      if (block) return Range{static_cast<uint32_t>(r.begin + delta), r.size};
      Range out{static_cast<uint32_t>(dst.size()), r.size};
      dst.insert(dst.end(), src.begin() + r.begin, src.begin() + r.end());
      return out;
    }
  };
  template <class T>
  static Shift copyBlock(const std::vector<Range>& ranges, Range rows, const std::vector<T>& src, std::vector<T>& dst) {
    if (rows.size == 0) return {};
    const uint32_t first = ranges[rows.begin].begin;
    uint32_t next = first;
    for (uint32_t row = rows.begin; row < rows.end(); ++row) {
      if (ranges[row].begin != next) return {};
      next = ranges[row].end();
    }
    const auto at = static_cast<int64_t>(dst.size());
    dst.insert(dst.end(), src.begin() + first, src.begin() + next);
    return Shift{true, at - first};
  }

  // Re-encodes a nested list with its reference-based strings re-pointed (a rare path: protobuf).
  std::string remapNested(const Value& v) {
    return flat::remapNested(v, src_, [this](int32_t i) { return str(i); });
  }

  const Batch& src_;
  DictionaryIndex& dict_;
  Batch& dst_;
  std::vector<int32_t> strings_, attributes_, functions_, mappings_, locations_, stacks_, links_;
  std::vector<int32_t> attr_scratch_, stack_scratch_;
  std::vector<Line> line_scratch_;
  std::string identity_, nested_;
};

Merger::Merger(Batch* dst) : dst_(dst), dict_(dst) {
  for (uint32_t r = 0; r < dst_->resources.size(); ++r) resource_by_key_.emplace(resourceKey(dst_->resources[r]), r);
}

std::string Merger::resourceKey(const Resource& r) const { return resourceIdentity(*dst_, r); }

void Merger::expect(const Batch& src) {
  expected_.samples += src.samples.size();
  expected_.values += src.values.size();
  expected_.timestamps += src.timestamps.size();
  expected_.indices += src.indices.size();
  expected_.profiles += src.profiles.size();
}

void Merger::reserveExpected() {
  Batch& d = *dst_;
  auto grow = [](auto& column, size_t more) { column.reserve(column.size() + more); };
  grow(d.samples.stack_index, expected_.samples);
  grow(d.samples.link_index, expected_.samples);
  grow(d.samples.attributes, expected_.samples);
  grow(d.samples.values, expected_.samples);
  grow(d.samples.timestamps, expected_.samples);
  grow(d.values, expected_.values);
  grow(d.timestamps, expected_.timestamps);
  grow(d.indices, expected_.indices);
  grow(d.profiles, expected_.profiles);
  expected_ = Expected{};
}

void Merger::append(const Batch& src) { append(src, Selection{}); }

void Merger::append(const Batch& src, const Selection& selection) {
  if (expected_.samples + expected_.profiles != 0) reserveExpected();
  if (&src == dst_) {
    const Batch copy = src;
    append(copy, selection);
    return;
  }
  // With a profile range or mask, resources and scopes left without a profile are not copied.
  const bool by_profile =
      selection.first_profile != 0 || selection.end_profile != UINT64_MAX || !selection.profiles.empty();
  // Profile `p` of `src`, the `ordinal`-th in resource -> scope -> profile order.
  auto keep = [&](uint32_t p, uint64_t ordinal) {
    return ordinal >= selection.first_profile && ordinal < selection.end_profile &&
           (selection.profiles.empty() || (p < selection.profiles.size() && selection.profiles[p]));
  };
  // Whether scope `si`, whose first profile is the `first`-th, keeps any profile.
  auto keepsAny = [&](uint32_t si, uint64_t first) {
    const Range profiles = src.scopes[si].profiles;
    for (uint32_t n = 0; n < profiles.size; ++n)
      if (keep(profiles.begin + n, first + n)) return true;
    return false;
  };
  const std::vector<bool>* rows = selection.samples.empty() ? nullptr : &selection.samples;
  uint64_t ordinal = 0;  // of the next profile of `src`, in resource -> scope -> profile order
  Batch& dst = *dst_;
  Remap remap(src, dict_);
  for (uint32_t ri = 0; ri < src.resources.size(); ++ri) {
    const Resource& src_r = src.resources[ri];
    uint64_t resource_profiles = 0;
    src.forEachScope(src_r, [&](uint32_t si) { resource_profiles += src.scopes[si].profiles.size; });
    const uint64_t resource_first = ordinal;
    ordinal += resource_profiles;
    if (!selection.resources.empty() && (ri >= selection.resources.size() || !selection.resources[ri])) continue;
    if (by_profile) {
      bool any = false;
      uint64_t first = resource_first;
      src.forEachScope(src_r, [&](uint32_t si) {
        any = any || keepsAny(si, first);
        first += src.scopes[si].profiles.size;
      });
      if (!any) continue;
    }
    // The resource is re-pointed into the destination first, so identities compare in its terms.
    Resource head;
    head.present = true;
    head.dropped_attributes_count = src_r.dropped_attributes_count;
    head.schema_url = remap.bytes(src_r.schema_url);
    head.attributes.begin = static_cast<uint32_t>(dst.key_values.size());
    for (const KeyValue& kv : Batch::slice(src.key_values, src_r.attributes)) {
      KeyValue out = remap.keyValue(kv);
      dst.key_values.push_back(out);
      ++head.attributes.size;
    }
    head.entity_refs.begin = static_cast<uint32_t>(dst.entity_refs.size());
    for (Bytes e : Batch::slice(src.entity_refs, src_r.entity_refs)) dst.entity_refs.push_back(remap.bytes(e));
    head.entity_refs.size = src_r.entity_refs.size;

    auto [it, is_new] = resource_by_key_.emplace(resourceKey(head), static_cast<uint32_t>(dst.resources.size()));
    if (is_new) {
      dst.resources.push_back(head);
    } else {  // the destination keeps its own copy of the resource
      dst.key_values.resize(head.attributes.begin);
      dst.entity_refs.resize(head.entity_refs.begin);
    }
    const uint32_t r = it->second;

    // Scopes are appended, never combined: a scope groups profiles that came from one source
    // (for example the sample types of one pprof file), which converters rely on to restore it.
    uint64_t scope_first = resource_first;
    src.forEachScope(src_r, [&](uint32_t si) {
      const Scope& src_s = src.scopes[si];
      const uint64_t first = scope_first;
      scope_first += src_s.profiles.size;
      if (by_profile && !keepsAny(si, first)) return;
      Scope scope;
      scope.present = true;
      scope.name = remap.bytes(src_s.name);
      scope.version = remap.bytes(src_s.version);
      scope.dropped_attributes_count = src_s.dropped_attributes_count;
      scope.schema_url = remap.bytes(src_s.schema_url);
      scope.attributes.begin = static_cast<uint32_t>(dst.key_values.size());
      for (const KeyValue& kv : Batch::slice(src.key_values, src_s.attributes)) {
        KeyValue out = remap.keyValue(kv);
        dst.key_values.push_back(out);
      }
      scope.attributes.size = src_s.attributes.size;
      scope.profiles.begin = static_cast<uint32_t>(dst.profiles.size());
      for (uint32_t p = src_s.profiles.begin, n = 0; p < src_s.profiles.end(); ++p, ++n) {
        if (by_profile && !keep(p, first + n)) continue;
        Profile out = remap.profile(src.profiles[p], rows);
        dst.profiles.push_back(out);
      }
      scope.profiles.size = static_cast<uint32_t>(dst.profiles.size()) - scope.profiles.begin;
      dst.addScope(r, scope);
    });
  }
}

}  // namespace proflow::flat
