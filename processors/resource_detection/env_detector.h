// The `env` detector: OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME, as the OTel SDK spec reads them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "processors/resource_detection/detected.h"

namespace proflow::processors::resourcedetection {

// Parses "k1=v1,k2=v2": keys and values trimmed of spaces and percent-decoded, empty members skipped.
// The spec says a value that fails to decode discards the whole variable: nullopt then, with `error`
// naming the bad member.
std::optional<DetectedList> parseResourceAttributes(std::string_view text, std::string* error);

// Reads the two variables from the environment. OTEL_SERVICE_NAME wins over a service.name inside
// OTEL_RESOURCE_ATTRIBUTES. A malformed OTEL_RESOURCE_ATTRIBUTES is ignored, `error` says why.
DetectedList detectEnv(std::string* error);

}  // namespace proflow::processors::resourcedetection
