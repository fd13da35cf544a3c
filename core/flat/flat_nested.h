// Reference-based strings inside nested lists (the encoded ArrayValue / KeyValueList of a kArray or
// kKvList value): what a merge or a compaction re-points when the string table changes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/flat/flat_batch.h"

namespace proflow::flat {

// Re-points every key_strindex / string_value_strindex inside the nested list of `v` (a kArray or
// kKvList value of `b`) through `map`, in document order; returns the list encoded again.
std::string remapNested(const Value& v, const Batch& b, const std::function<int32_t(int32_t)>& map);

}  // namespace proflow::flat
