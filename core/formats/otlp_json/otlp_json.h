// OTLP/JSON (the protobuf JSON mapping of the OTLP profiles messages, with OTLP's hex ids) straight
// from and to the flat batch, with no protobuf message on the way.
//
// Reading follows protobuf's JSON parser for these messages: lowerCamelCase names and the original
// snake_case names, 64-bit integers as strings or numbers, integral numbers in any JSON form (1e2),
// doubles as numbers or as "NaN"/"Infinity"/numeric strings, booleans also as strings ("true", "t",
// "yes", "y", "1" and their negations, any case), bytes
// in base64 (standard or URL alphabet, padding optional), traceId/spanId/profileId in hex, null as
// the field's default, a repeated field given one value as a list of one, unknown fields skipped.
// Where it differs: the document must be RFC 8259 JSON (protobuf's parser also takes single quotes,
// unquoted keys and trailing commas), an empty field name is refused in every message (protobuf
// refuses it in some and reads it as the enclosing message in others), and it is bounded (DecodeLimits).
//
// Writing gives byte for byte what protobuf's printer gives for the same message
// (always_print_enums_as_ints; the profiles messages hold no enum): fields in field-number order,
// defaults omitted, 64-bit integers quoted, ids in lowercase hex, compact.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/flat/flat_batch.h"
#include "core/util/status.h"

namespace proflow::otlp_json {

// What decoding may hold, whatever `claim` allows: the batch's memory with its next growth (twice
// what it holds, as columns double), at most this many bytes per byte of the document read so far,
// plus kDecodeBytesBase. An honest document decodes into at most ~4 bytes per byte (one-digit
// sample values, each an int64), twice that while a column doubles; a document of empty messages
// (`{}` profiles: ~32 bytes per byte) passes it early and is refused then, having built little.
inline constexpr size_t kMaxDecodeBytesPerJsonByte = 32;
inline constexpr size_t kDecodeBytesBase = 64u << 10;

struct DecodeLimits {
  size_t max_bytes = size_t{1} << 32;  // offsets in the flat batch are 32-bit
  uint32_t max_depth = 100;            // nesting of arrays and objects (protobuf's JSON parser allows 100)
  size_t max_values = size_t{64} << 20;
  // Bytes decoding may hold (the batch's memory with its next growth, as `claim` is asked); 0 = no
  // bound but the per-byte one. Past it, decoding stops with PAYLOAD_TOO_LARGE naming
  // `max_memory_key` (the receiver's limit it comes from).
  size_t max_memory = 0;
  std::string max_memory_key = "max_memory";
  // Called as the batch grows (every few thousand values, and at the end) with the bytes decoding
  // holds: the batch's memory, its next growth included. A non-OK answer stops decoding with it.
  std::function<Status(size_t bytes)> claim;
};

struct [[nodiscard]] DecodeResult {
  Status status;  // non-OK: nothing decoded (INVALID_ARGUMENT naming the byte and the field)
  // Sample rows that carried unknown fields (for validateAndPrune's pre-v1.10 layout hint).
  std::vector<uint32_t> samples_with_unknown_fields;
};

// An ExportProfilesServiceRequest or ProfilesData in OTLP/JSON into `out` (replacing its content),
// not validated: run flat::validateAndPrune on it.
DecodeResult decode(std::string_view json, flat::Batch* out, const DecodeLimits& limits = {});

// The batch as OTLP/JSON (ExportProfilesServiceRequest and ProfilesData have the same form).
std::string encode(const flat::Batch& batch);
void encode(const flat::Batch& batch, std::string* out);

// ExportProfilesServiceResponse: {} or {"partialSuccess":{...}} (rejected_profiles < 0: no partial success).
std::string encodeResponse(int64_t rejected_profiles, std::string_view error_message, bool partial_success);
// Reads an ExportProfilesServiceResponse's partial success; false when the body is not one.
bool decodeResponse(std::string_view json, int64_t* rejected_profiles, std::string* error_message);
// google.rpc.Status as OTLP/HTTP answers errors in JSON: {"code":3,"message":"..."}.
std::string encodeRpcStatus(int code, std::string_view message);

}  // namespace proflow::otlp_json
