#include "core/flat/flat_attributes.h"

#include "core/otlp_types.h"

namespace proflow::flat {

std::string valueText(const Batch& b, const Value& v) {
  switch (v.kind) {
    case ValueKind::kString: return std::string(b.view(v.bytes));
    case ValueKind::kStrindex: return std::string(b.string(v.strindex()));
    case ValueKind::kInt: return std::to_string(v.intValue());
    case ValueKind::kBool: return v.boolValue() ? "true" : "false";
    case ValueKind::kDouble: return std::to_string(v.doubleValue());
    case ValueKind::kBytes: return std::string(b.view(v.bytes));
    case ValueKind::kArray:
    case ValueKind::kKvList: {  // rare: printed as protobuf prints the message
      otlp::AnyValue any;
      const std::string_view bytes = b.view(v.bytes);
      const int size = static_cast<int>(bytes.size());
      if (v.kind == ValueKind::kArray) (void)any.mutable_array_value()->ParseFromArray(bytes.data(), size);
      else (void)any.mutable_kvlist_value()->ParseFromArray(bytes.data(), size);
      return any.ShortDebugString();
    }
    case ValueKind::kAbsent:
    case ValueKind::kEmpty: return std::string();
  }
  return std::string();
}

std::optional<std::string> scalarText(const Batch& b, const Value& v) {
  switch (v.kind) {
    case ValueKind::kString:
    case ValueKind::kStrindex:
    case ValueKind::kInt:
    case ValueKind::kBool:
    case ValueKind::kDouble: return valueText(b, v);
    default: return std::nullopt;
  }
}

std::optional<std::string> resourceAttribute(const Batch& b, const Resource& r, std::string_view key) {
  for (const KeyValue& kv : Batch::slice(b.key_values, r.attributes)) {
    const std::string_view k = kv.key_strindex != 0 ? b.string(kv.key_strindex) : b.view(kv.key);
    if (k == key) return valueText(b, kv.value);
  }
  return std::nullopt;
}

}  // namespace proflow::flat
