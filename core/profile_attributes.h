// Reads resource, scope and profile attributes by key, whatever their encoding (inline strings or
// references into the request dictionary), as display strings for hashing and grouping.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/otlp_types.h"

namespace proflow {

// Where one profile sits in its request.
struct ProfileRef {
  const otlp::ResourceProfiles* resource = nullptr;
  const otlp::ScopeProfiles* scope = nullptr;
  const otlp::Profile* profile = nullptr;
};

// An AnyValue as text: strings as is, numbers and bools in decimal, anything else as its debug form.
std::string valueText(const otlp::AnyValue& v, const otlp::Dictionary& dict);

// The key of an attribute, inline or a dictionary reference (key_strindex 0 with an inline key means
// "inline": index 0 is "").
std::string_view attributeKey(const otlp::KeyValue& kv, const otlp::Dictionary& dict);

// Scalar values (strings inline or referenced, ints, bools, doubles) as text; nullopt for arrays,
// maps, bytes and unset values, which make no sense as labels.
std::optional<std::string> scalarText(const otlp::AnyValue& v, const otlp::Dictionary& dict);

// The scalar attributes of a resource or scope, in order, keys and values resolved through the
// dictionary: what exporters turn into labels or tags.
std::vector<std::pair<std::string, std::string>> scalarAttributes(
    const google::protobuf::RepeatedPtrField<otlp::KeyValue>& kvs, const otlp::Dictionary& dict);

// Looks `key` up in the profile's attributes, then its scope's, then its resource's (nearest wins).
// Two special keys: `profile_id` (hex, absent when unset or all zero) and `time_unix_nano`.
std::optional<std::string> lookupAttribute(const ProfileRef& ref, const otlp::Dictionary& dict, std::string_view key);

// One level only: `kvs` of a resource or scope, or the profile's attribute_indices.
std::optional<std::string> findKeyValue(const google::protobuf::RepeatedPtrField<otlp::KeyValue>& kvs,
                                        const otlp::Dictionary& dict, std::string_view key);
std::optional<std::string> findProfileAttribute(const otlp::Profile& p, const otlp::Dictionary& dict,
                                                std::string_view key);

// Hex of the profile id, "" when unset or all zero.
std::string profileIdHex(const otlp::Profile& p);

}  // namespace proflow
