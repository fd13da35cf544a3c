// Flat batches of known stacks for the status tests.
#pragma once

#include <string>
#include <vector>

#include "core/flat/flat_convert.h"
#include "tests/support/profile_builder.h"

namespace proflow::status::testing {

// One profile of `service` and `type` ("cpu/nanoseconds") with the given samples (frames leaf first).
inline flat::Batch batchOf(const std::string& service, const std::string& type,
                           const std::vector<proflow::testing::SampleSpec>& samples) {
  proflow::testing::ProfileSpec p;
  p.sample_type = type.substr(0, type.find('/'));
  p.sample_unit = type.substr(type.find('/') + 1);
  p.samples = samples;
  flat::Batch b;
  if (!flat::fromRequest(proflow::testing::makeRequest(service, {p}), &b).isOk()) std::abort();
  return b;
}

}  // namespace proflow::status::testing
