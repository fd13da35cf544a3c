#include "core/flat/flat_attributes.h"

#include <algorithm>
#include <span>
#include <unordered_set>

#include "core/flat/range_append.h"
#include "core/model/otlp_types.h"
#include "core/util/hex.h"

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

std::string_view keyOf(const Batch& b, const KeyValue& kv) {
  return kv.key_strindex != 0 ? b.string(kv.key_strindex) : b.view(kv.key);
}

std::optional<std::string> keyValueAttribute(const Batch& b, Range key_values, std::string_view key) {
  for (const KeyValue& kv : Batch::slice(b.key_values, key_values))
    if (keyOf(b, kv) == key) return valueText(b, kv.value);
  return std::nullopt;
}

std::optional<std::string> resourceAttribute(const Batch& b, const Resource& r, std::string_view key) {
  return keyValueAttribute(b, r.attributes, key);
}

void forEachKeyValue(const Batch& b, Range key_values,
                     const std::function<void(std::string_view key, const KeyValue& kv)>& fn) {
  // Lists are short: a scan of the keys seen; a long one (a hostile sender's) gets a set.
  constexpr size_t kScanned = 16;
  std::vector<std::string_view> seen;
  std::unordered_set<std::string_view> seen_set;
  for (const KeyValue& kv : Batch::slice(b.key_values, key_values)) {
    const std::string_view key = keyOf(b, kv);
    if (key_values.size <= kScanned) {
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
      seen.push_back(key);
    } else if (!seen_set.insert(key).second) {
      continue;
    }
    fn(key, kv);
  }
}

std::vector<std::pair<std::string, std::string>> scalarKeyValues(const Batch& b, Range key_values) {
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(key_values.size);
  forEachKeyValue(b, key_values, [&](std::string_view key, const KeyValue& kv) {
    if (auto text = scalarText(b, kv.value)) out.emplace_back(std::string(key), std::move(*text));
  });
  return out;
}

std::optional<std::string> profileAttribute(const Batch& b, const Profile& p, std::string_view key) {
  for (int32_t i : b.indexList(p.attributes)) {
    if (i <= 0 || static_cast<size_t>(i) >= b.attributes.size()) continue;
    const Attribute& a = b.attributes[static_cast<size_t>(i)];
    if (b.string(a.key_strindex) == key) return valueText(b, a.value);
  }
  return std::nullopt;
}

std::string profileIdHex(const Batch& b, const Profile& p) {
  const std::string_view id = b.view(p.profile_id);
  return id.find_first_not_of('\0') == std::string_view::npos ? std::string() : hexEncode(id);
}

std::optional<std::string> lookupAttribute(const Batch& b, const ProfileRef& ref, std::string_view key) {
  if (key == "profile_id") {
    std::string id = profileIdHex(b, *ref.profile);
    if (id.empty()) return std::nullopt;
    return id;
  }
  if (key == "time_unix_nano") return std::to_string(ref.profile->time_unix_nano);
  if (auto v = profileAttribute(b, *ref.profile, key)) return v;
  if (ref.scope)
    if (auto v = keyValueAttribute(b, ref.scope->attributes, key)) return v;
  if (ref.resource)
    if (auto v = keyValueAttribute(b, ref.resource->attributes, key)) return v;
  return std::nullopt;
}

void addResourceAttribute(Batch& b, uint32_t r, std::string_view key, std::string_view value, bool replace) {
  Resource& res = b.resources[r];
  res.present = true;
  KeyValue kv;
  kv.value.kind = ValueKind::kString;
  if (replace)
    for (KeyValue& existing : std::span<KeyValue>(b.key_values.data() + res.attributes.begin, res.attributes.size))
      if (keyOf(b, existing) == key) {  // the attribute every reader sees for `key`
        existing.value = kv.value;
        existing.value.bytes = b.addBytes(value);
        return;
      }
  kv.key = b.addBytes(key);
  kv.value.bytes = b.addBytes(value);
  prepareAppend(b.key_values, res.attributes);
  b.key_values.push_back(kv);
  ++res.attributes.size;
}

}  // namespace proflow::flat
