// Dropping dictionary strings and attributes that nothing references any more. An edit never
// changes a shared dictionary entry in place: it points its items at new entries, and the old ones
// stay in the tables. Left there, a hashed or deleted value would still be sent to the backend, so a
// component that edits calls dropUnreferenced() before passing the batch on.
#pragma once

#include <cstddef>

#include "core/flat/flat_batch.h"

namespace proflow::flat {

struct DroppedEntries {
  size_t strings = 0, attributes = 0;
  bool any() const { return strings + attributes != 0; }
};

// Removes the strings and attributes that no live item (resource, scope, profile, sample, mapping,
// location, function, kept attribute) references, and re-points every reference to the ones left;
// the order of what is kept does not change. Index 0 of both tables is kept. A reference out of
// range points at index 0 afterwards. Costs one pass over the references when nothing is dropped.
DroppedEntries dropUnreferenced(Batch& b);

}  // namespace proflow::flat
