// OTLP ExportProfilesServiceRequest (or ProfilesData) bytes -> flat::Batch, without protobuf
// messages. Structural errors (truncation, wrong wire types, invalid UTF-8 in string fields, too
// many entries) refuse the whole request; with `validate`, the checks every receiver applies
// (validateAndPrune below) run on the result: a bad dictionary refuses the request, a bad profile is
// removed and reported (OTLP partial success).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/flat/flat_batch.h"
#include "core/formats/varint_bits.h"
#include "core/util/status.h"

namespace proflow::flat {

struct DecodeOptions {
  bool validate = true;
  // Rows of every table and column together (strings, locations, samples, values, ...): bounds the
  // memory a small body can make the decoder allocate.
  size_t max_entries = 64u << 20;
  // Nesting of AnyValue arrays and key-value lists (protobuf's own default recursion limit).
  int max_depth = formats::kProtobufRecursionLimit;
  // Refuse string fields that are not UTF-8 (as protobuf's parser does). Off for requests built in
  // memory (the tests' fromRequest), which protobuf serializes whatever their strings hold.
  bool check_utf8 = true;
  // Called before the decode's memory grows to `bytes` in total (every column and the arena of the
  // batch, the decoder's scratch, and a column's old buffer while it is moved), so a caller can
  // charge it to a budget as it is allocated. A non-OK status stops decoding and is decode's
  // verdict as is (e.g. RESOURCE_EXHAUSTED from an in-flight budget). How much it can reach is
  // bounded by the body: see kMaxDecodeBytesPerWireByte.
  std::function<Status(size_t bytes)> claim_memory;
};

// The most memory a decode holds per byte of its body (plus kDecodeBytesBase). The rows a body
// makes weigh at most sizeof(Profile) per 2 bytes of input (a Profile sent as a key and an empty
// length; every other row is lighter for its encoding, arena bytes are at most the input's); a
// column's capacity is at most twice its rows, and while a column moves its old and new buffers
// are both held: 2 x 2 x sizeof(Profile) / 2. Nothing in the decoder is quadratic: a repeated
// field split by others is collected and placed once, a list value sent in n parts is copied
// once. Receivers charge what is really allocated (`claim_memory`); the bound is what the tests
// and the otlp_proto fuzz target hold the decoder to.
inline constexpr size_t kMaxDecodeBytesPerWireByte = 2 * sizeof(Profile);
inline constexpr size_t kDecodeBytesBase = 64u << 10;

struct [[nodiscard]] DecodeResult {
  Status request;                           // non-OK: nothing accepted (INVALID_ARGUMENT)
  std::vector<std::string> profile_errors;  // one per profile removed by validation
  int64_t rejected_profiles = 0;
  // Without `validate`: sample rows that carried unknown fields, for a later validateAndPrune().
  std::vector<uint32_t> samples_with_unknown_fields;
  // The most memory the decode held at once (what it passed to `claim_memory` last).
  size_t peak_memory_bytes = 0;
};

// Decodes `wire` into `out` (replacing its content).
DecodeResult decode(std::string_view wire, Batch* out, const DecodeOptions& options = {});

// The receivers' checks (flat_validate.cc) on a flat batch; removes invalid profiles.
// `samples_with_unknown_fields` (sorted sample rows) selects the pre-v1.10 layout hint.
DecodeResult validateAndPrune(Batch* batch, const std::vector<uint32_t>& samples_with_unknown_fields = {});

}  // namespace proflow::flat
