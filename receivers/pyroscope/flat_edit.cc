#include "receivers/pyroscope/flat_edit.h"

namespace proflow::receivers::pyroscope {

flat::Range lastScopeProfiles(const flat::Batch& b) {
  if (b.resources.empty() || b.resources.back().last_scope == flat::kNone) return {};
  return b.scopes[b.resources.back().last_scope].profiles;
}

void addProfileAttribute(flat::Batch& b, uint32_t profile, int32_t attribute) {
  flat::Range& r = b.profiles[profile].attributes;
  if (r.size == 0) {
    r.begin = static_cast<uint32_t>(b.indices.size());
  } else if (r.end() != b.indices.size()) {
    const uint32_t begin = static_cast<uint32_t>(b.indices.size());
    b.indices.reserve(b.indices.size() + r.size + 1);  // no reallocation while copying from itself
    for (uint32_t i = r.begin; i < r.end(); ++i) b.indices.push_back(b.indices[i]);
    r.begin = begin;
  }
  b.indices.push_back(attribute);
  ++r.size;
}

}  // namespace proflow::receivers::pyroscope
