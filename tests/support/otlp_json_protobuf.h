// The protobuf-based OTLP/JSON path, kept as the tests' reference for core/formats/otlp_json: ids
// rewritten between hex and base64 around protobuf's JSON parser and printer. Production code reads
// and writes OTLP/JSON with core/formats/otlp_json (no protobuf message); the tests and the
// differential fuzz target compare the two.
#pragma once

#include <google/protobuf/message.h>

#include <string>
#include <string_view>

#include "core/util/status.h"

namespace proflow::otlp_json_pb {

// Parses OTLP/JSON into `out` (cleared first), as protobuf's JSON parser reads it with the ids in hex.
Status parseOtlpJson(std::string_view json, google::protobuf::Message* out);

// Prints `msg` as compact OTLP/JSON (protobuf's printer, enums as integers, ids as lowercase hex).
std::string toOtlpJson(const google::protobuf::Message& msg);

// The id rewrite on its own. `hex_to_base64` = before parsing.
Status rewriteIds(std::string_view json, bool hex_to_base64, std::string* out);

}  // namespace proflow::otlp_json_pb
