#include "core/flat/flat_identity.h"

#include <algorithm>
#include <cstring>

namespace proflow::flat {
namespace {

template <class T>
void put(std::string& out, T v) {
  char buf[sizeof(T)];
  std::memcpy(buf, &v, sizeof(T));
  out.append(buf, sizeof(T));
}

}  // namespace

void appendMessageIdentity(std::string& out, const otlp::AnyValue& v, const StringResolver& resolve) {
  using V = otlp::AnyValue;
  switch (v.value_case()) {
    case V::kStringValue: out.push_back('s'), putString(out, v.string_value()); break;
    case V::kStringValueStrindex: out.push_back('s'), putString(out, resolve(v.string_value_strindex())); break;
    case V::kBoolValue: out.push_back('b'), put(out, v.bool_value()); break;
    case V::kIntValue: out.push_back('i'), put(out, v.int_value()); break;
    case V::kDoubleValue: out.push_back('d'), put(out, v.double_value()); break;
    case V::kBytesValue: out.push_back('y'), putString(out, v.bytes_value()); break;
    case V::kArrayValue:
      out.push_back('a');
      put<uint32_t>(out, static_cast<uint32_t>(v.array_value().values_size()));
      for (const auto& e : v.array_value().values()) appendMessageIdentity(out, e, resolve);
      break;
    case V::kKvlistValue:
      out.push_back('k');
      put<uint32_t>(out, static_cast<uint32_t>(v.kvlist_value().values_size()));
      for (const auto& kv : v.kvlist_value().values()) {
        putString(out, kv.key_strindex() != 0 ? resolve(kv.key_strindex()) : std::string_view(kv.key()));
        appendMessageIdentity(out, kv.value(), resolve);
      }
      break;
    case V::VALUE_NOT_SET: out.push_back('0'); break;
  }
}

void putString(std::string& out, std::string_view s) {
  put<uint32_t>(out, static_cast<uint32_t>(s.size()));
  out.append(s);
}

// The nested list of a kArray / kKvList value as a protobuf AnyValue (the decoder checked it).
otlp::AnyValue nestedMessage(const Value& v, const Batch& b) {
  otlp::AnyValue out;
  const std::string_view bytes = b.view(v.bytes);
  if (v.kind == ValueKind::kArray)
    (void)out.mutable_array_value()->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
  else
    (void)out.mutable_kvlist_value()->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
  return out;
}

void appendValueIdentity(std::string& out, const Value& v, const Batch& b, const StringResolver& resolve) {
  switch (v.kind) {
    case ValueKind::kAbsent:
    case ValueKind::kEmpty: out.push_back('0'); break;
    case ValueKind::kString: out.push_back('s'), putString(out, b.view(v.bytes)); break;
    case ValueKind::kStrindex: out.push_back('s'), putString(out, resolve(v.strindex())); break;
    case ValueKind::kBool: out.push_back('b'), put(out, v.boolValue()); break;
    case ValueKind::kInt: out.push_back('i'), put(out, v.intValue()); break;
    case ValueKind::kDouble: out.push_back('d'), put(out, v.doubleValue()); break;
    case ValueKind::kBytes: out.push_back('y'), putString(out, b.view(v.bytes)); break;
    case ValueKind::kArray:
    case ValueKind::kKvList: appendMessageIdentity(out, nestedMessage(v, b), resolve); break;
  }
}

std::string keyValuesIdentity(const Batch& b, Range key_values) {
  std::vector<std::string> parts;
  parts.reserve(key_values.size);
  for (const KeyValue& kv : Batch::slice(b.key_values, key_values)) {
    std::string p(kv.key_strindex != 0 ? b.string(kv.key_strindex) : b.view(kv.key));
    p.push_back('\0');
    appendValueIdentity(p, kv.value, b, [&](int32_t s) { return b.string(s); });
    parts.push_back(std::move(p));
  }
  return joinAttributeIdentities(std::move(parts));
}

std::string joinAttributeIdentities(std::vector<std::string> parts) {
  std::sort(parts.begin(), parts.end());  // attribute order carries no meaning
  std::string out;
  for (const auto& p : parts) {
    out += std::to_string(p.size());
    out.push_back(':');
    out += p;
  }
  return out;
}

std::string resourceIdentity(const Batch& b, const Resource& r) {
  std::string out(b.view(r.schema_url));
  out.push_back('\n');
  out += keyValuesIdentity(b, r.attributes);
  return out;
}

}  // namespace proflow::flat
