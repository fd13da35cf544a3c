#include "receivers/pyroscope/flat_edit.h"

#include "core/flat/range_append.h"

namespace proflow::receivers::pyroscope {

flat::Range lastScopeProfiles(const flat::Batch& b) {
  if (b.resources.empty() || b.resources.back().last_scope == flat::kNone) return {};
  return b.scopes[b.resources.back().last_scope].profiles;
}

void addProfileAttribute(flat::Batch& b, uint32_t profile, int32_t attribute) {
  flat::Range& r = b.profiles[profile].attributes;
  flat::prepareAppend(b.indices, r);
  b.indices.push_back(attribute);
  ++r.size;
}

}  // namespace proflow::receivers::pyroscope
