// Reading attributes of a flat batch as text, whatever their encoding (reference-based keys and
// values resolved; non-string values printed): what processors match on and exporters turn into
// labels or tags.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/flat/flat_batch.h"

namespace proflow::flat {

// The text of an attribute value: strings as they are, numbers and bools in decimal, lists in their
// debug form.
std::string valueText(const Batch& b, const Value& v);

// Scalars only (string, int, bool, double) as valueText() gives them; nullopt for lists, bytes and
// unset values, which make no sense as labels.
std::optional<std::string> scalarText(const Batch& b, const Value& v);

// The value of resource attribute `key` as text (the first one with that key); nullopt when absent.
std::optional<std::string> resourceAttribute(const Batch& b, const Resource& r, std::string_view key);
// The same over any resource or scope attribute list (`key_values` of the batch).
std::optional<std::string> keyValueAttribute(const Batch& b, Range key_values, std::string_view key);

// How a resource/scope attribute list is read everywhere in proflow (routing, processors,
// exporters), so all of them see one list alike. OTLP says `key` MUST NOT be set when key_strindex
// is used and keys MUST be unique; when a sender breaks either:
// - keyOf: key_strindex when it is not 0 (index 0 is "", never a key), else the inline key;
// - forEachKeyValue: the first attribute of a key; later ones with the same key are not seen (as
//   the Collector's Map.Get finds the first).
std::string_view keyOf(const Batch& b, const KeyValue& kv);
// Calls fn(key, attribute) for each attribute of the list whose key did not come earlier in it.
void forEachKeyValue(const Batch& b, Range key_values,
                     const std::function<void(std::string_view key, const KeyValue& kv)>& fn);

// Resource/scope attributes with scalar values as (key, text), in order.
std::vector<std::pair<std::string, std::string>> scalarKeyValues(const Batch& b, Range key_values);

// The value of profile attribute `key` as text (the first one with that key; indexes out of range
// skipped).
std::optional<std::string> profileAttribute(const Batch& b, const Profile& p, std::string_view key);

// A profile with the scope and resource it belongs to.
struct ProfileRef {
  const Resource* resource = nullptr;
  const Scope* scope = nullptr;
  const Profile* profile = nullptr;
};

// `key` looked up nearest first: the pseudo keys
// `profile_id` (hex, nullopt when all zero) and `time_unix_nano`, then the profile's attributes,
// the scope's, the resource's.
std::optional<std::string> lookupAttribute(const Batch& b, const ProfileRef& ref, std::string_view key);

// The profile id as lowercase hex; "" when it is empty or all zero.
std::string profileIdHex(const Batch& b, const Profile& p);

// Adds string attribute key=value (inline key) to resource `r`, which becomes present. With
// `replace`, the attribute readers see for that key (keyOf, inline or by reference) takes the
// value instead. The resource's list is
// moved to the end of key_values first unless it is there already.
void addResourceAttribute(Batch& b, uint32_t r, std::string_view key, std::string_view value, bool replace);

}  // namespace proflow::flat
