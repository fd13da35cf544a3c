// Builds small but realistic OTLP profiles requests for tests, and checks dictionaries for the
// invariants every component must keep (indexes in range, zero values at [0], no duplicates).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/otlp_types.h"

namespace proflow::testing {

struct SampleSpec {
  std::vector<std::string> frames;  // function names, leaf first
  int64_t value = 1;
};

struct ProfileSpec {
  std::string sample_type = "cpu";
  std::string sample_unit = "nanoseconds";
  uint64_t time_unix_nano = 1'700'000'000'000'000'000ULL;
  uint64_t duration_nano = 10'000'000'000ULL;
  std::vector<SampleSpec> samples;
};

// One resource (service.name = `service`, inline attribute) with one scope holding `profiles`.
// Every frame becomes a Function (filename "<name>.cc") and a Location with one Line.
otlp::Request makeRequest(const std::string& service, const std::vector<ProfileSpec>& profiles);

// Rewrites every resource attribute as a dictionary reference (key_strindex, and
// string_value_strindex for strings), the other encoding OTLP senders may use.
void referenceResourceAttributes(otlp::Request* request);

// A profile with `n` samples over a few shared stacks, handy for volume.
ProfileSpec makeProfile(int n_samples, int seed = 0);

// Function names of a stack, leaf first, resolved through the dictionary.
std::vector<std::string> stackFrames(const otlp::Dictionary& dict, int32_t stack_index);

// Resource service.name (inline or reference-based), "" when absent.
std::string serviceName(const otlp::Request& request, int resource_index);

// Every problem found: out-of-range index, non-zero entry at [0], duplicate string or function.
// Empty when the request is consistent.
std::vector<std::string> dictionaryProblems(const otlp::Request& request);

}  // namespace proflow::testing
