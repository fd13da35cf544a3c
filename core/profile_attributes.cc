#include "core/profile_attributes.h"

#include "core/dictionary_builder.h"

namespace proflow {

std::optional<std::string> findKeyValue(const google::protobuf::RepeatedPtrField<otlp::KeyValue>& kvs,
                                  const otlp::Dictionary& dict, std::string_view key) {
  for (const auto& kv : kvs) {
    // key_strindex == 0 with an inline key means "inline key" (index 0 is "").
    std::string_view k = kv.key_strindex() != 0 ? dictString(dict, kv.key_strindex()) : std::string_view(kv.key());
    if (k == key) return valueText(kv.value(), dict);
  }
  return std::nullopt;
}

std::optional<std::string> findProfileAttribute(const otlp::Profile& p, const otlp::Dictionary& dict,
                                                std::string_view key) {
  for (int32_t i : p.attribute_indices()) {
    if (i <= 0 || i >= dict.attribute_table_size()) continue;
    const auto& kv = dict.attribute_table(i);
    if (dictString(dict, kv.key_strindex()) == key) return valueText(kv.value(), dict);
  }
  return std::nullopt;
}

std::string valueText(const otlp::AnyValue& v, const otlp::Dictionary& dict) {
  switch (v.value_case()) {
    case otlp::AnyValue::kStringValue: return v.string_value();
    case otlp::AnyValue::kStringValueStrindex: return std::string(dictString(dict, v.string_value_strindex()));
    case otlp::AnyValue::kIntValue: return std::to_string(v.int_value());
    case otlp::AnyValue::kBoolValue: return v.bool_value() ? "true" : "false";
    case otlp::AnyValue::kDoubleValue: return std::to_string(v.double_value());
    case otlp::AnyValue::kBytesValue: return v.bytes_value();
    default: return v.ShortDebugString();
  }
}

std::string profileIdHex(const otlp::Profile& p) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  bool nonzero = false;
  for (unsigned char c : p.profile_id()) {
    nonzero |= c != 0;
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return nonzero ? out : std::string();
}

std::optional<std::string> lookupAttribute(const ProfileRef& ref, const otlp::Dictionary& dict, std::string_view key) {
  if (key == "profile_id") {
    std::string id = profileIdHex(*ref.profile);
    if (id.empty()) return std::nullopt;
    return id;
  }
  if (key == "time_unix_nano") return std::to_string(ref.profile->time_unix_nano());
  if (auto v = findProfileAttribute(*ref.profile, dict, key)) return v;
  if (ref.scope) {
    if (auto v = findKeyValue(ref.scope->scope().attributes(), dict, key)) return v;
  }
  if (ref.resource) {
    if (auto v = findKeyValue(ref.resource->resource().attributes(), dict, key)) return v;
  }
  return std::nullopt;
}

}  // namespace proflow
