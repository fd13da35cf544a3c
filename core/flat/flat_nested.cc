#include "core/flat/flat_nested.h"

#include "core/flat/flat_identity.h"
#include "core/model/otlp_types.h"

namespace proflow::flat {
namespace {

void remapMessage(otlp::AnyValue* v, const std::function<int32_t(int32_t)>& map) {
  switch (v->value_case()) {
    case otlp::AnyValue::kStringValueStrindex: v->set_string_value_strindex(map(v->string_value_strindex())); break;
    case otlp::AnyValue::kArrayValue:
      for (auto& e : *v->mutable_array_value()->mutable_values()) remapMessage(&e, map);
      break;
    case otlp::AnyValue::kKvlistValue:
      for (auto& kv : *v->mutable_kvlist_value()->mutable_values()) {
        if (kv.key_strindex() != 0) kv.set_key_strindex(map(kv.key_strindex()));
        if (kv.has_value()) remapMessage(kv.mutable_value(), map);
      }
      break;
    default: break;
  }
}

}  // namespace

std::string remapNested(const Value& v, const Batch& b, const std::function<int32_t(int32_t)>& map) {
  otlp::AnyValue any = nestedMessage(v, b);  // a rare path: protobuf
  remapMessage(&any, map);
  return v.kind == ValueKind::kArray ? any.array_value().SerializeAsString() : any.kvlist_value().SerializeAsString();
}

}  // namespace proflow::flat
