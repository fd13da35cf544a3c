// The OTLP profiles development-version header (opentelemetry-proto PR #857, not merged yet): while
// profiles keep the v1development package and endpoint, a sender says which incompatible revision
// of the schema it encodes, and a receiver refuses versions it cannot read before decoding.
//   OTLP/HTTP header  OTLP-Profiles-Development-Version: <positive integer>
//   OTLP/gRPC metadata otlp-profiles-development-version: <positive integer>
// No header means version 1; a malformed, repeated or unsupported value is INVALID_ARGUMENT / 400.
#pragma once

#include <string_view>
#include <vector>

#include "core/util/status.h"

namespace proflow {

inline constexpr std::string_view kProfilesVersionHeader = "OTLP-Profiles-Development-Version";
inline constexpr std::string_view kProfilesVersionMetadata = "otlp-profiles-development-version";
// The schema revision proflow reads and writes (proto v1.10+ numbering).
inline constexpr int kProfilesVersion = 1;
inline constexpr std::string_view kProfilesVersionText = "1";

// OK for no value or a supported version; otherwise INVALID_ARGUMENT naming the supported versions.
Status checkProfilesVersion(const std::vector<std::string_view>& values);

}  // namespace proflow
