#include "core/flat/flat_encode.h"

#include <cstdlib>
#include <span>

#include "core/flat/wire.h"

namespace proflow::flat {
namespace {

using wire::int32Size;
using wire::lenFieldSize;
using wire::varintSize;

size_t int32Field(int32_t v) { return v == 0 ? 0 : 1 + int32Size(v); }
size_t uint64Field(uint64_t v) { return v == 0 ? 0 : 1 + varintSize(v); }
size_t bytesField(Bytes b) { return b.size == 0 ? 0 : lenFieldSize(b.size); }

uint8_t* putInt32(uint8_t* p, uint32_t field, int32_t v) {
  if (v == 0) return p;
  p = wire::putKey(p, field, wire::kVarint);
  return wire::putVarint(p, static_cast<uint64_t>(static_cast<int64_t>(v)));
}
uint8_t* putUint64(uint8_t* p, uint32_t field, uint64_t v) {
  if (v == 0) return p;
  p = wire::putKey(p, field, wire::kVarint);
  return wire::putVarint(p, v);
}

template <class T>
size_t packedPayload(std::span<const T> values) {
  size_t n = 0;
  for (T v : values) n += varintSize(static_cast<uint64_t>(static_cast<int64_t>(v)));
  return n;
}

// Computes sizes into `sizes` (pre-order: a message's slot before its children's), then writes
// consuming them in the same order. Each message has its size and write functions side by side.
class Encoder {
 public:
  explicit Encoder(const Batch& b) : b_(b) {}

  size_t size() {
    size_t n = 0;
    for (const Resource& r : b_.resources) n += lenFieldSize(resourceProfilesSize(r));
    if (b_.has_dictionary) n += lenFieldSize(dictionarySize());
    return n;
  }

  uint8_t* write(uint8_t* p) {
    for (const Resource& r : b_.resources) p = writeResourceProfiles(p, r);
    if (b_.has_dictionary) p = writeDictionary(p);
    return p;
  }

 private:
  uint32_t reserve() {
    sizes_.push_back(0);
    return static_cast<uint32_t>(sizes_.size() - 1);
  }
  size_t set(uint32_t slot, size_t n) {
    sizes_[slot] = static_cast<uint32_t>(n);
    return n;
  }
  // Key and length of the next message (or packed list) in pre-order.
  uint8_t* open(uint8_t* p, uint32_t field) {
    p = wire::putKey(p, field, wire::kLen);
    return wire::putVarint(p, sizes_[cursor_++]);
  }
  uint8_t* putBytes(uint8_t* p, uint32_t field, Bytes b) {
    return b.size == 0 ? p : wire::putBytes(p, field, b_.view(b));
  }

  template <class T>
  size_t packedSize(std::span<const T> values) {
    if (values.empty()) return 0;
    return lenFieldSize(set(reserve(), packedPayload(values)));
  }
  template <class T>
  uint8_t* putPacked(uint8_t* p, uint32_t field, std::span<const T> values) {
    if (values.empty()) return p;
    p = open(p, field);
    for (T v : values) p = wire::putVarint(p, static_cast<uint64_t>(static_cast<int64_t>(v)));
    return p;
  }
  static size_t fixedPackedSize(std::span<const uint64_t> values) {
    return values.empty() ? 0 : lenFieldSize(8 * values.size());
  }
  static uint8_t* putFixedPacked(uint8_t* p, uint32_t field, std::span<const uint64_t> values) {
    if (values.empty()) return p;
    p = wire::putKey(p, field, wire::kLen);
    p = wire::putVarint(p, 8 * values.size());
    for (uint64_t v : values) p = wire::putFixed64(p, v);
    return p;
  }

  // AnyValue payload size (no slot: its size depends on its kind only).
  size_t valueSize(const Value& v) const {
    switch (v.kind) {
      case ValueKind::kAbsent:
      case ValueKind::kEmpty: return 0;
      case ValueKind::kString:
      case ValueKind::kArray:
      case ValueKind::kKvList:
      case ValueKind::kBytes: return lenFieldSize(v.bytes.size);
      case ValueKind::kBool: return 2;
      case ValueKind::kInt: return 1 + varintSize(static_cast<uint64_t>(v.scalar));
      case ValueKind::kDouble: return 9;
      case ValueKind::kStrindex: return 1 + int32Size(v.strindex());
    }
    return 0;
  }
  size_t valueFieldSize(const Value& v) const { return v.kind == ValueKind::kAbsent ? 0 : lenFieldSize(valueSize(v)); }
  uint8_t* putValue(uint8_t* p, uint32_t field, const Value& v) {
    if (v.kind == ValueKind::kAbsent) return p;
    p = wire::putKey(p, field, wire::kLen);
    p = wire::putVarint(p, valueSize(v));
    switch (v.kind) {
      case ValueKind::kAbsent:
      case ValueKind::kEmpty: break;
      case ValueKind::kString: return wire::putBytes(p, 1, b_.view(v.bytes));
      case ValueKind::kBool:
        p = wire::putKey(p, 2, wire::kVarint);
        *p++ = v.boolValue() ? 1 : 0;
        break;
      case ValueKind::kInt:
        p = wire::putKey(p, 3, wire::kVarint);
        return wire::putVarint(p, static_cast<uint64_t>(v.scalar));
      case ValueKind::kDouble:
        p = wire::putKey(p, 4, wire::kFixed64);
        return wire::putFixed64(p, static_cast<uint64_t>(v.scalar));
      case ValueKind::kArray: return wire::putBytes(p, 5, b_.view(v.bytes));
      case ValueKind::kKvList: return wire::putBytes(p, 6, b_.view(v.bytes));
      case ValueKind::kBytes: return wire::putBytes(p, 7, b_.view(v.bytes));
      case ValueKind::kStrindex:
        p = wire::putKey(p, 8, wire::kVarint);
        return wire::putVarint(p, static_cast<uint64_t>(static_cast<int64_t>(v.strindex())));
    }
    return p;
  }

  size_t keyValueSize(const KeyValue& kv) const {
    return bytesField(kv.key) + valueFieldSize(kv.value) + int32Field(kv.key_strindex);
  }
  size_t keyValuesSize(Range r) const {
    size_t n = 0;
    for (const KeyValue& kv : Batch::slice(b_.key_values, r)) n += lenFieldSize(keyValueSize(kv));
    return n;
  }
  uint8_t* putKeyValues(uint8_t* p, uint32_t field, Range r) {
    for (const KeyValue& kv : Batch::slice(b_.key_values, r)) {
      p = wire::putKey(p, field, wire::kLen);
      p = wire::putVarint(p, keyValueSize(kv));
      p = putBytes(p, 1, kv.key);
      p = putValue(p, 2, kv.value);
      p = putInt32(p, 3, kv.key_strindex);
    }
    return p;
  }

  // ResourceProfiles
  size_t resourceProfilesSize(const Resource& r) {
    const uint32_t slot = reserve();
    size_t n = 0;
    if (r.present) {
      size_t res = keyValuesSize(r.attributes) + uint64Field(r.dropped_attributes_count);
      for (Bytes e : Batch::slice(b_.entity_refs, r.entity_refs)) res += lenFieldSize(e.size);
      n += lenFieldSize(set(reserve(), res));
    }
    b_.forEachScope(r, [&](uint32_t s) { n += lenFieldSize(scopeProfilesSize(b_.scopes[s])); });
    n += bytesField(r.schema_url);
    return set(slot, n);
  }
  uint8_t* writeResourceProfiles(uint8_t* p, const Resource& r) {
    p = open(p, 1);
    if (r.present) {
      p = open(p, 1);
      p = putKeyValues(p, 1, r.attributes);
      p = putUint64(p, 2, r.dropped_attributes_count);
      for (Bytes e : Batch::slice(b_.entity_refs, r.entity_refs)) p = putBytesAlways(p, 3, e);
    }
    b_.forEachScope(r, [&](uint32_t s) { p = writeScopeProfiles(p, b_.scopes[s]); });
    return putBytes(p, 3, r.schema_url);
  }
  uint8_t* putBytesAlways(uint8_t* p, uint32_t field, Bytes b) { return wire::putBytes(p, field, b_.view(b)); }

  // ScopeProfiles
  size_t scopeProfilesSize(const Scope& s) {
    const uint32_t slot = reserve();
    size_t n = 0;
    if (s.present)
      n += lenFieldSize(bytesField(s.name) + bytesField(s.version) + keyValuesSize(s.attributes) +
                        uint64Field(s.dropped_attributes_count));
    for (uint32_t i = s.profiles.begin; i < s.profiles.end(); ++i) n += lenFieldSize(profileSize(b_.profiles[i]));
    n += bytesField(s.schema_url);
    return set(slot, n);
  }
  uint8_t* writeScopeProfiles(uint8_t* p, const Scope& s) {
    p = open(p, 2);
    if (s.present) {
      p = wire::putKey(p, 1, wire::kLen);
      p = wire::putVarint(p, bytesField(s.name) + bytesField(s.version) + keyValuesSize(s.attributes) +
                                 uint64Field(s.dropped_attributes_count));
      p = putBytes(p, 1, s.name);
      p = putBytes(p, 2, s.version);
      p = putKeyValues(p, 3, s.attributes);
      p = putUint64(p, 4, s.dropped_attributes_count);
    }
    for (uint32_t i = s.profiles.begin; i < s.profiles.end(); ++i) p = writeProfile(p, b_.profiles[i]);
    return putBytes(p, 3, s.schema_url);
  }

  static size_t valueTypeSize(const ValueType& v) { return int32Field(v.type_strindex) + int32Field(v.unit_strindex); }
  static uint8_t* putValueType(uint8_t* p, uint32_t field, const ValueType& v) {
    if (!v.present) return p;
    p = wire::putKey(p, field, wire::kLen);
    p = wire::putVarint(p, valueTypeSize(v));
    p = putInt32(p, 1, v.type_strindex);
    return putInt32(p, 2, v.unit_strindex);
  }

  // Profile
  size_t profileSize(const Profile& pr) {
    const uint32_t slot = reserve();
    size_t n = 0;
    if (pr.sample_type.present) n += lenFieldSize(valueTypeSize(pr.sample_type));
    for (uint32_t row = pr.samples.begin; row < pr.samples.end(); ++row) n += lenFieldSize(sampleSize(row));
    n += pr.time_unix_nano ? 9 : 0;
    n += uint64Field(pr.duration_nano);
    if (pr.period_type.present) n += lenFieldSize(valueTypeSize(pr.period_type));
    n += uint64Field(static_cast<uint64_t>(pr.period));
    n += bytesField(pr.profile_id) + uint64Field(pr.dropped_attributes_count);
    n += bytesField(pr.original_payload_format) + bytesField(pr.original_payload);
    n += packedSize(b_.indexList(pr.attributes));
    return set(slot, n);
  }
  uint8_t* writeProfile(uint8_t* p, const Profile& pr) {
    p = open(p, 2);
    p = putValueType(p, 1, pr.sample_type);
    for (uint32_t row = pr.samples.begin; row < pr.samples.end(); ++row) p = writeSample(p, row);
    if (pr.time_unix_nano) p = wire::putFixed64(wire::putKey(p, 3, wire::kFixed64), pr.time_unix_nano);
    p = putUint64(p, 4, pr.duration_nano);
    p = putValueType(p, 5, pr.period_type);
    p = putUint64(p, 6, static_cast<uint64_t>(pr.period));
    p = putBytes(p, 7, pr.profile_id);
    p = putUint64(p, 8, pr.dropped_attributes_count);
    p = putBytes(p, 9, pr.original_payload_format);
    p = putBytes(p, 10, pr.original_payload);
    return putPacked(p, 11, b_.indexList(pr.attributes));
  }

  // Sample
  size_t sampleSize(uint32_t row) {
    const SampleColumns& s = b_.samples;
    const uint32_t slot = reserve();
    size_t n = int32Field(s.stack_index[row]);
    n += packedSize(b_.indexList(s.attributes[row]));
    n += int32Field(s.link_index[row]);
    n += packedSize(Batch::slice(b_.values, s.values[row]));
    n += fixedPackedSize(Batch::slice(b_.timestamps, s.timestamps[row]));
    return set(slot, n);
  }
  uint8_t* writeSample(uint8_t* p, uint32_t row) {
    const SampleColumns& s = b_.samples;
    p = open(p, 2);
    p = putInt32(p, 1, s.stack_index[row]);
    p = putPacked(p, 2, b_.indexList(s.attributes[row]));
    p = putInt32(p, 3, s.link_index[row]);
    p = putPacked(p, 4, Batch::slice(b_.values, s.values[row]));
    return putFixedPacked(p, 5, Batch::slice(b_.timestamps, s.timestamps[row]));
  }

  // ProfilesDictionary
  size_t dictionarySize() {
    const uint32_t slot = reserve();
    size_t n = 0;
    for (const Mapping& m : b_.mappings) n += lenFieldSize(mappingSize(m));
    for (const Location& l : b_.locations) n += lenFieldSize(locationSize(l));
    for (const Function& f : b_.functions) n += lenFieldSize(functionSize(f));
    for (const Link& l : b_.links) n += lenFieldSize(bytesField(l.trace_id) + bytesField(l.span_id));
    for (Bytes s : b_.strings) n += lenFieldSize(s.size);
    for (const Attribute& a : b_.attributes) n += lenFieldSize(attributeSize(a));
    for (const Stack& s : b_.stacks) n += lenFieldSize(stackSize(s));
    return set(slot, n);
  }
  uint8_t* writeDictionary(uint8_t* p) {
    p = open(p, 2);
    for (const Mapping& m : b_.mappings) p = writeMapping(p, m);
    for (const Location& l : b_.locations) p = writeLocation(p, l);
    for (const Function& f : b_.functions) {
      p = wire::putKey(p, 3, wire::kLen);
      p = wire::putVarint(p, functionSize(f));
      p = putInt32(p, 1, f.name_strindex);
      p = putInt32(p, 2, f.system_name_strindex);
      p = putInt32(p, 3, f.filename_strindex);
      p = putUint64(p, 4, static_cast<uint64_t>(f.start_line));
    }
    for (const Link& l : b_.links) {
      p = wire::putKey(p, 4, wire::kLen);
      p = wire::putVarint(p, bytesField(l.trace_id) + bytesField(l.span_id));
      p = putBytes(p, 1, l.trace_id);
      p = putBytes(p, 2, l.span_id);
    }
    for (Bytes s : b_.strings) p = putBytesAlways(p, 5, s);
    for (const Attribute& a : b_.attributes) {
      p = wire::putKey(p, 6, wire::kLen);
      p = wire::putVarint(p, attributeSize(a));
      p = putInt32(p, 1, a.key_strindex);
      p = putValue(p, 2, a.value);
      p = putInt32(p, 3, a.unit_strindex);
    }
    for (const Stack& s : b_.stacks) {
      p = open(p, 7);
      p = putPacked(p, 1, b_.indexList(s.locations));
    }
    return p;
  }

  size_t mappingSize(const Mapping& m) {
    const uint32_t slot = reserve();
    return set(slot, uint64Field(m.memory_start) + uint64Field(m.memory_limit) + uint64Field(m.file_offset) +
                         int32Field(m.filename_strindex) + packedSize(b_.indexList(m.attributes)));
  }
  uint8_t* writeMapping(uint8_t* p, const Mapping& m) {
    p = open(p, 1);
    p = putUint64(p, 1, m.memory_start);
    p = putUint64(p, 2, m.memory_limit);
    p = putUint64(p, 3, m.file_offset);
    p = putInt32(p, 4, m.filename_strindex);
    return putPacked(p, 5, b_.indexList(m.attributes));
  }

  static size_t lineSize(const Line& l) {
    return int32Field(l.function_index) + uint64Field(static_cast<uint64_t>(l.line)) +
           uint64Field(static_cast<uint64_t>(l.column));
  }
  size_t locationSize(const Location& l) {
    const uint32_t slot = reserve();
    size_t n = int32Field(l.mapping_index) + uint64Field(l.address);
    for (const Line& line : Batch::slice(b_.lines, l.lines)) n += lenFieldSize(lineSize(line));
    n += packedSize(b_.indexList(l.attributes));
    return set(slot, n);
  }
  uint8_t* writeLocation(uint8_t* p, const Location& l) {
    p = open(p, 2);
    p = putInt32(p, 1, l.mapping_index);
    p = putUint64(p, 2, l.address);
    for (const Line& line : Batch::slice(b_.lines, l.lines)) {
      p = wire::putKey(p, 3, wire::kLen);
      p = wire::putVarint(p, lineSize(line));
      p = putInt32(p, 1, line.function_index);
      p = putUint64(p, 2, static_cast<uint64_t>(line.line));
      p = putUint64(p, 3, static_cast<uint64_t>(line.column));
    }
    return putPacked(p, 4, b_.indexList(l.attributes));
  }

  static size_t functionSize(const Function& f) {
    return int32Field(f.name_strindex) + int32Field(f.system_name_strindex) + int32Field(f.filename_strindex) +
           uint64Field(static_cast<uint64_t>(f.start_line));
  }
  size_t attributeSize(const Attribute& a) const {
    return int32Field(a.key_strindex) + valueFieldSize(a.value) + int32Field(a.unit_strindex);
  }
  size_t stackSize(const Stack& s) {
    const uint32_t slot = reserve();
    return set(slot, packedSize(b_.indexList(s.locations)));
  }

  const Batch& b_;
  std::vector<uint32_t> sizes_;
  size_t cursor_ = 0;
};

}  // namespace

size_t encodedSize(const Batch& batch) { return Encoder(batch).size(); }

void encodeTo(const Batch& batch, std::string* out) {
  Encoder encoder(batch);
  const size_t n = encoder.size();
  const size_t at = out->size();
  out->resize(at + n);
  auto* begin = reinterpret_cast<uint8_t*>(out->data() + at);
  uint8_t* end = encoder.write(begin);
  if (static_cast<size_t>(end - begin) != n) std::abort();  // the size pass and the write pass disagree
}

std::string encode(const Batch& batch) {
  std::string out;
  encodeTo(batch, &out);
  return out;
}

}  // namespace proflow::flat
