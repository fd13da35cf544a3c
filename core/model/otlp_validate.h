// Cheap structural checks every receiver runs on an OTLP request before accepting it: every index
// in range, zero values at index 0, values/timestamps length rules, and a hint when the sender
// speaks the pre-v1.10 Sample layout. Violations in the shared dictionary reject the whole request;
// violations inside one profile reject only that profile (OTLP partial success).
#pragma once

#include <string>
#include <vector>

#include "core/model/otlp_types.h"
#include "core/util/status.h"

namespace proflow {

struct ValidationResult {
  Status request;                       // non-OK: reject everything (INVALID_ARGUMENT)
  std::vector<std::string> profile_errors;  // one per rejected profile, already removed from the request
  int64_t rejected_profiles = 0;
};

// Checks `request` and removes profiles that are invalid on their own.
ValidationResult validateAndPrune(otlp::Request* request);

}  // namespace proflow
