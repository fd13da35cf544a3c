#include "core/attributes/flat_attr_list.h"

#include "core/flat/flat_attributes.h"
#include "core/flat/flat_identity.h"

namespace proflow::attributes {
namespace {

bool holdsReferences(const otlp::AnyValue& v);

bool holdsReferences(const otlp::KeyValue& kv) { return kv.key_strindex() != 0 || holdsReferences(kv.value()); }

bool holdsReferences(const otlp::AnyValue& v) {
  switch (v.value_case()) {
    case otlp::AnyValue::kStringValueStrindex: return true;
    case otlp::AnyValue::kArrayValue:
      for (const auto& e : v.array_value().values())
        if (holdsReferences(e)) return true;
      return false;
    case otlp::AnyValue::kKvlistValue:
      for (const auto& kv : v.kvlist_value().values())
        if (holdsReferences(kv)) return true;
      return false;
    default: return false;
  }
}

}  // namespace

otlp::AnyValue toAnyValue(const flat::Batch& b, const flat::Value& v) {
  otlp::AnyValue out;
  switch (v.kind) {
    case flat::ValueKind::kAbsent:
    case flat::ValueKind::kEmpty: break;
    case flat::ValueKind::kString: out.set_string_value(std::string(b.view(v.bytes))); break;
    case flat::ValueKind::kStrindex: out.set_string_value(std::string(b.string(v.strindex()))); break;
    case flat::ValueKind::kBool: out.set_bool_value(v.boolValue()); break;
    case flat::ValueKind::kInt: out.set_int_value(v.intValue()); break;
    case flat::ValueKind::kDouble: out.set_double_value(v.doubleValue()); break;
    case flat::ValueKind::kBytes: out.set_bytes_value(std::string(b.view(v.bytes))); break;
    case flat::ValueKind::kArray:
    case flat::ValueKind::kKvList: out = flat::nestedMessage(v, b); break;
  }
  return out;
}

flat::Value storeValue(flat::Batch& b, const otlp::AnyValue& v) {
  flat::Value out;
  out.kind = flat::ValueKind::kEmpty;
  switch (v.value_case()) {
    case otlp::AnyValue::VALUE_NOT_SET: break;
    case otlp::AnyValue::kStringValue:
      out.kind = flat::ValueKind::kString;
      out.bytes = b.addBytes(v.string_value());
      break;
    case otlp::AnyValue::kStringValueStrindex:  // an index of this batch's table, kept as is
      out.kind = flat::ValueKind::kStrindex;
      out.scalar = v.string_value_strindex();
      break;
    case otlp::AnyValue::kBoolValue:
      out.kind = flat::ValueKind::kBool;
      out.scalar = v.bool_value() ? 1 : 0;
      break;
    case otlp::AnyValue::kIntValue:
      out.kind = flat::ValueKind::kInt;
      out.scalar = v.int_value();
      break;
    case otlp::AnyValue::kDoubleValue:
      out.kind = flat::ValueKind::kDouble;
      out.scalar = std::bit_cast<int64_t>(v.double_value());
      break;
    case otlp::AnyValue::kBytesValue:
      out.kind = flat::ValueKind::kBytes;
      out.bytes = b.addBytes(v.bytes_value());
      break;
    case otlp::AnyValue::kArrayValue:
      out.kind = flat::ValueKind::kArray;
      out.bytes = b.addBytes(v.array_value().SerializeAsString());
      out.nested_refs = holdsReferences(v);
      break;
    case otlp::AnyValue::kKvlistValue:
      out.kind = flat::ValueKind::kKvList;
      out.bytes = b.addBytes(v.kvlist_value().SerializeAsString());
      out.nested_refs = holdsReferences(v);
      break;
  }
  return out;
}

AttrList readKeyValues(const flat::Batch& b, flat::Range range) {
  AttrList out;
  out.reserve(range.size);
  int i = 0;
  for (const flat::KeyValue& kv : flat::Batch::slice(b.key_values, range))
    out.push_back(Attr{std::string(flat::keyOf(b, kv)), toAnyValue(b, kv.value), i++, false});
  return out;
}

void writeKeyValues(flat::Batch& b, flat::Range* range, const AttrList& attrs) {
  std::vector<flat::KeyValue> out;
  out.reserve(attrs.size());
  for (const auto& a : attrs) {
    if (!a.changed && a.origin >= 0) {
      out.push_back(b.key_values[range->begin + static_cast<uint32_t>(a.origin)]);
      continue;
    }
    flat::KeyValue kv;
    kv.key = b.addBytes(a.key);
    kv.value = storeValue(b, a.value);
    out.push_back(kv);
  }
  // A range belongs to one resource or scope, so it can be overwritten in place.
  if (out.size() > range->size) range->begin = static_cast<uint32_t>(b.key_values.size());
  if (range->begin == b.key_values.size()) b.key_values.resize(b.key_values.size() + out.size());
  std::copy(out.begin(), out.end(), b.key_values.begin() + range->begin);
  range->size = static_cast<uint32_t>(out.size());
}

AttrList readIndexedAttributes(const flat::Batch& b, std::span<const int32_t> indices) {
  AttrList out;
  out.reserve(indices.size());
  for (size_t i = 0; i < indices.size(); ++i) {
    const int32_t idx = indices[i];
    if (idx <= 0 || static_cast<size_t>(idx) >= b.attributes.size()) continue;  // receivers reject these
    const flat::Attribute& e = b.attributes[static_cast<size_t>(idx)];
    out.push_back(Attr{std::string(b.string(e.key_strindex)), toAnyValue(b, e.value), static_cast<int>(i), false});
  }
  return out;
}

std::vector<int32_t> internAttributes(flat::DictionaryIndex& dict, std::span<const int32_t> indices,
                                      const AttrList& attrs) {
  flat::Batch& b = dict.batch();
  std::vector<int32_t> out;
  out.reserve(attrs.size());
  for (const auto& a : attrs) {
    if (!a.changed && a.origin >= 0) {
      out.push_back(indices[static_cast<size_t>(a.origin)]);
      continue;
    }
    flat::Attribute candidate;
    if (a.origin >= 0) candidate.unit_strindex = b.attributes[static_cast<size_t>(indices[a.origin])].unit_strindex;
    candidate.key_strindex = dict.string(a.key);
    const size_t arena = b.arena.size(), before = b.attributes.size();
    candidate.value = storeValue(b, a.value);
    out.push_back(dict.attribute(candidate));
    if (b.attributes.size() == before) b.arena.resize(arena);  // found: the candidate's bytes are not needed
  }
  return out;
}

}  // namespace proflow::attributes
