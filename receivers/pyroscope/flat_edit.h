// Small edits the pyroscope receiver makes on the profiles it has just converted into a flat batch:
// Pyroscope's facts as profile attributes (interned with flat::DictionaryIndex).
#pragma once

#include <cstdint>
#include <string_view>

#include "core/flat/flat_batch.h"
#include "core/flat/flat_merge.h"

namespace proflow::receivers::pyroscope {

// The profiles of the batch's last scope (the one a converter just appended): [begin, end) of
// batch.profiles. Empty when the batch has no scope.
flat::Range lastScopeProfiles(const flat::Batch& b);

// Appends attribute index `attribute` to the attribute list of profile `profile`. Lists shared with
// other profiles (a converter gives the profiles of one scope one list) are copied first.
void addProfileAttribute(flat::Batch& b, uint32_t profile, int32_t attribute);

}  // namespace proflow::receivers::pyroscope
