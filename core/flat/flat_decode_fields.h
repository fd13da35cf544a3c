// The wire types protobuf accepts for each field of each OTLP profiles message, as the flat
// decoder checks them. Internal to core/flat.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/flat/wire.h"

namespace proflow::flat::decode_fields {

constexpr uint8_t V = wire::accepts(wire::kVarint), L = wire::accepts(wire::kLen),
                  F64 = wire::accepts(wire::kFixed64);

// The wire types protobuf accepts for each field of each message (index: field number). A known
// field with another wire type is an unknown field to protobuf: skipped, not refused.
constexpr uint8_t kRequestFields[] = {0, L, L};
constexpr uint8_t kResourceProfilesFields[] = {0, L, L, L};
constexpr uint8_t kResourceFields[] = {0, L, V, L};
constexpr uint8_t kEntityRefFields[] = {0, L, L, L, L};
constexpr uint8_t kKeyValueFields[] = {0, L, L, V};
constexpr uint8_t kAnyValueFields[] = {0, L, V, V, F64, L, L, L, V};
constexpr uint8_t kListFields[] = {0, L};  // ArrayValue, KeyValueList
constexpr uint8_t kScopeProfilesFields[] = {0, L, L, L};
constexpr uint8_t kScopeFields[] = {0, L, L, L, V};
constexpr uint8_t kValueTypeFields[] = {0, V, V};
constexpr uint8_t kProfileFields[] = {0, L, L, F64, V, L, V, L, V, L, L, V | L};
constexpr uint8_t kSampleFields[] = {0, V, V | L, V, V | L, F64 | L};
constexpr uint8_t kDictionaryFields[] = {0, L, L, L, L, L, L, L};
constexpr uint8_t kMappingFields[] = {0, V, V, V, V, V | L};
constexpr uint8_t kLocationFields[] = {0, V, V, L, V | L};
constexpr uint8_t kLineFields[] = {0, V, V, V};
constexpr uint8_t kFunctionFields[] = {0, V, V, V, V};
constexpr uint8_t kLinkFields[] = {0, L, L};
constexpr uint8_t kAttributeFields[] = {0, V, L, V};  // KeyValueAndUnit
constexpr uint8_t kStackFields[] = {0, V | L};

// Reader::next relies on it: no field 0, and only the wire types of values.
template <size_t N>
constexpr bool onlyValueFields(const uint8_t (&types)[N]) {
  for (uint8_t t : types)
    if ((t & ~(V | L | F64)) != 0) return false;
  return types[0] == 0;
}
static_assert(onlyValueFields(kRequestFields) && onlyValueFields(kResourceProfilesFields) &&
              onlyValueFields(kResourceFields) && onlyValueFields(kEntityRefFields) &&
              onlyValueFields(kKeyValueFields) && onlyValueFields(kAnyValueFields) &&
              onlyValueFields(kListFields) && onlyValueFields(kScopeProfilesFields) &&
              onlyValueFields(kScopeFields) && onlyValueFields(kValueTypeFields) &&
              onlyValueFields(kProfileFields) && onlyValueFields(kSampleFields) &&
              onlyValueFields(kDictionaryFields) && onlyValueFields(kMappingFields) &&
              onlyValueFields(kLocationFields) && onlyValueFields(kLineFields) &&
              onlyValueFields(kFunctionFields) && onlyValueFields(kLinkFields) &&
              onlyValueFields(kAttributeFields) && onlyValueFields(kStackFields));

}  // namespace proflow::flat::decode_fields
