// Reading attributes of a flat batch as text, with the meaning of core/profile_attributes.h on the
// protobuf form (reference-based keys and values resolved; non-string values printed).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/flat/flat_batch.h"

namespace proflow::flat {

// The text of an attribute value, as valueText() of core/profile_attributes.h gives it.
std::string valueText(const Batch& b, const Value& v);

// Scalars only (string, int, bool, double) as valueText() gives them; nullopt for other kinds, as
// scalarText() of core/profile_attributes.h.
std::optional<std::string> scalarText(const Batch& b, const Value& v);

// The value of resource attribute `key` as text (the first one with that key); nullopt when absent.
std::optional<std::string> resourceAttribute(const Batch& b, const Resource& r, std::string_view key);

}  // namespace proflow::flat
