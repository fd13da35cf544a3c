// OTLP ExportProfilesServiceRequest (or ProfilesData) bytes -> flat::Batch, without protobuf
// messages. Structural errors (truncation, wrong wire types, invalid UTF-8 in string fields, too
// many entries) refuse the whole request; with `validate`, the checks every receiver applies
// (core/model/otlp_validate.h) run on the result: a bad dictionary refuses the request, a bad profile is
// removed and reported (OTLP partial success).
#pragma once

#include <cstddef>
#include <cstdint>
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
  // memory (fromRequest), which protobuf serializes whatever their strings hold.
  bool check_utf8 = true;
};

struct DecodeResult {
  Status request;                           // non-OK: nothing accepted (INVALID_ARGUMENT)
  std::vector<std::string> profile_errors;  // one per profile removed by validation
  int64_t rejected_profiles = 0;
  // Without `validate`: sample rows that carried unknown fields, for a later validateAndPrune().
  std::vector<uint32_t> samples_with_unknown_fields;
};

// Decodes `wire` into `out` (replacing its content).
DecodeResult decode(std::string_view wire, Batch* out, const DecodeOptions& options = {});

// The receivers' checks (core/model/otlp_validate.h) on a flat batch; removes invalid profiles.
// `samples_with_unknown_fields` (sorted sample rows) selects the pre-v1.10 layout hint.
DecodeResult validateAndPrune(Batch* batch, const std::vector<uint32_t>& samples_with_unknown_fields = {});

}  // namespace proflow::flat
