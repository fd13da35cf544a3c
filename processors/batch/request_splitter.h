// Cuts one request into requests of at most N profiles, each with its own dictionary holding only
// what its profiles reference (re-interned with RequestMerger).
#pragma once

#include <cstdint>
#include <vector>

#include "core/otlp_types.h"

namespace proflow::processors::batch {

// Profiles keep their order; resources and scopes are repeated in every part that has profiles of
// them. Resources or scopes without any profile are dropped. `max_profiles` 0 = no limit.
std::vector<otlp::Request> splitRequest(otlp::Request&& src, uint64_t max_profiles);

}  // namespace proflow::processors::batch
