#include "core/profile_attributes.h"

#include "core/dictionary_builder.h"

namespace proflow {

std::string_view attributeKey(const otlp::KeyValue& kv, const otlp::Dictionary& dict) {
  return kv.key_strindex() != 0 ? dictString(dict, kv.key_strindex()) : std::string_view(kv.key());
}

std::optional<std::string> scalarText(const otlp::AnyValue& v, const otlp::Dictionary& dict) {
  switch (v.value_case()) {
    case otlp::AnyValue::kStringValue:
    case otlp::AnyValue::kStringValueStrindex:
    case otlp::AnyValue::kIntValue:
    case otlp::AnyValue::kBoolValue:
    case otlp::AnyValue::kDoubleValue: return valueText(v, dict);
    default: return std::nullopt;
  }
}

std::vector<std::pair<std::string, std::string>> scalarAttributes(
    const google::protobuf::RepeatedPtrField<otlp::KeyValue>& kvs, const otlp::Dictionary& dict) {
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(kvs.size());
  for (const auto& kv : kvs)
    if (auto text = scalarText(kv.value(), dict)) out.emplace_back(std::string(attributeKey(kv, dict)), std::move(*text));
  return out;
}

std::optional<std::string> findKeyValue(const google::protobuf::RepeatedPtrField<otlp::KeyValue>& kvs,
                                        const otlp::Dictionary& dict, std::string_view key) {
  for (const auto& kv : kvs)
    if (attributeKey(kv, dict) == key) return valueText(kv.value(), dict);
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
