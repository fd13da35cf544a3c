// Flat batches of known stacks for the status tests.
#pragma once

#include <string>
#include <vector>

#include "tests/support/flat_request.h"
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

// One profile per sample type "t<i>/count" of `service`, i in [0, n): n series in one batch, the
// profile of type i with 1 + i % 7 samples.
inline flat::Batch manySeries(const std::string& service, int n) {
  std::vector<proflow::testing::ProfileSpec> profiles(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    auto& p = profiles[static_cast<size_t>(i)];
    p.sample_type = "t" + std::to_string(i);
    p.sample_unit = "count";
    for (int k = 0; k <= i % 7; ++k) p.samples.push_back({{"f", "main"}, 1});
  }
  flat::Batch b;
  if (!flat::fromRequest(proflow::testing::makeRequest(service, profiles), &b).isOk()) std::abort();
  return b;
}

}  // namespace proflow::status::testing
