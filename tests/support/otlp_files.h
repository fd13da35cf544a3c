// Reading what the file exporter wrote, for end-to-end assertions.
#pragma once

#include <string>
#include <vector>

#include "core/model/otlp_types.h"

namespace proflow::testing {

// Parses a file of size-prefixed (4-byte big-endian) ProfilesData messages (format: otlp_proto).
// Fails the current test on a torn or unparsable record.
std::vector<otlp::Request> readOtlpProtoFile(const std::string& path);
// The same for a file an exporter may still be appending to (polling): a torn last record is one
// not written yet, left out instead of failing the test.
std::vector<otlp::Request> readOtlpProtoFileSoFar(const std::string& path);

// All profiles of all requests, in order.
std::vector<otlp::Profile> allProfiles(const std::vector<otlp::Request>& requests);

}  // namespace proflow::testing
