// OTLP requests for the flat model tests: one that sets every field of the profiles protos
// (reference-based attributes, nested values, original_payload, entity refs, ...), agent-shaped
// ones, and requests converted from committed pprof fixtures.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/model/otlp_types.h"

namespace proflow::flat::testing {

// Every field of every message set at least once.
otlp::Request everyFieldRequest();
// `profiles` CPU profiles of one service over `samples` random stacks (seeded).
otlp::Request agentRequest(int profiles, int samples, uint32_t seed);
// The pprof fixtures under tests/ converted by pprof_to_otlp (original payload kept on the first).
std::vector<std::pair<std::string, otlp::Request>> pprofRequests();
// All of the above, named.
std::vector<std::pair<std::string, otlp::Request>> corpus();

}  // namespace proflow::flat::testing
