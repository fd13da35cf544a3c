// Canonical form of `pprof -raw` output for comparing two profiles up to ordering and id numbering:
// every sample names its locations by content (address, mapping content, lines) instead of id, and
// every location names its mapping by content; then samples, locations and mappings are sorted.
// Everything else (header, values, labels, stack order within a sample) is kept verbatim, so any
// difference in meaning still shows.
#pragma once

#include <string>

namespace proflow::testing {

// Returns the canonical text, or a string starting with "PARSE ERROR" when the input does not look
// like `pprof -raw` output.
std::string normalizePprofRaw(const std::string& raw);

}  // namespace proflow::testing
