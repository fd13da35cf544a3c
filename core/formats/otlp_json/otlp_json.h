// OTLP/JSON for the profiles messages (ExportProfilesServiceRequest, ProfilesData, ...).
//
// Protobuf's JSON mapping already gives OTLP's lowerCamelCase keys and 64-bit integers as
// strings, and the parser ignores unknown fields as OTLP requires. OTLP deviates in one place:
// the ids traceId, spanId (Link) and profileId (Profile) are hex strings, not base64. These
// functions rewrite exactly those string values around protobuf's parser and printer.
#pragma once

#include <google/protobuf/message.h>

#include <string>
#include <string_view>

#include "core/util/status.h"

namespace proflow::otlp_json {

// Parses OTLP/JSON into `out` (cleared first). kInvalidArgument with the line, column and
// offset for malformed JSON, and a clear message for ids that are not hex.
Status parseOtlpJson(std::string_view json, google::protobuf::Message* out);

// Prints `msg` as compact OTLP/JSON (lowerCamelCase, 64-bit integers as strings, enums as
// integers, ids as lowercase hex).
std::string toOtlpJson(const google::protobuf::Message& msg);

// The id rewrite on its own (exposed for tests and tools). `hex_to_base64` = before parsing.
// Also validates the JSON syntax; errors name the position.
Status rewriteIds(std::string_view json, bool hex_to_base64, std::string* out);

}  // namespace proflow::otlp_json
