// OTLP/JSON as the OTLP HTTP receiver, the broker receivers and `proflow convert` read it
// (core/formats/otlp_json, straight into a flat batch), held against protobuf's JSON parser with the
// ids rewritten (tests/support/otlp_json_protobuf.h), differentially:
// - what the flat decoder accepts, protobuf accepts too, with the same meaning (the same wire bytes);
// - what protobuf accepts from a strict RFC 8259 document within the bounds, the flat decoder accepts
//   (protobuf's parser also takes single quotes, unquoted keys and trailing commas; the flat decoder
//   refuses them, as it refuses a document nested deeper than its bound, and an empty field name,
//   which protobuf refuses in some messages and reads as the enclosing message in others);
// - the batch printed as OTLP/JSON is byte for byte what protobuf prints for the same message;
// then the receivers' validation and conversion run on it.
#include <string_view>

#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "core/formats/otlp_json/otlp_json.h"
#include "core/util/json/json_document.h"
#include "tests/fuzz/fuzz_common.h"
#include "tests/support/otlp_json_protobuf.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proflow;
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  flat::Batch batch;
  const otlp_json::DecodeResult ours = otlp_json::decode(json, &batch);
  otlp::Request reference;
  const Status theirs = otlp_json_pb::parseOtlpJson(json, &reference);
  if (!ours.status.isOk()) {
    // An empty field name: protobuf's parser refuses it in some messages and reads it as the
    // enclosing message (or an unknown field) in others; the flat decoder always refuses it.
    if (ours.status.message().find("a field name is empty") != std::string::npos) return 0;
    json::Document strict;
    const bool rfc = strict.parse(json, json::Limits{.max_bytes = size + 1, .max_depth = 100,
                                                     .max_values = size + 1, .max_string_bytes = size + 1})
                         .isOk();
    FUZZ_CHECK(!theirs.isOk() || !rfc,
               "protobuf accepts what the flat decoder refuses: " + ours.status.message());
    return 0;
  }
  // The reference rewrites every traceId/spanId/profileId key's string, in unknown fields too, and
  // refuses one that is not hex there; the flat decoder skips unknown fields whole, as OTLP asks.
  const bool id_in_unknown_field = theirs.message().find(" must be a hex string") != std::string::npos;
  if (id_in_unknown_field) return 0;
  FUZZ_CHECK(theirs.isOk(), "the flat decoder accepts what protobuf refuses: " + theirs.message());
  const std::string wire = flat::encode(batch);
  FUZZ_CHECK(wire == reference.SerializeAsString(), "the flat decoder reads another request than protobuf");
  const std::string printed = otlp_json::encode(batch);
  FUZZ_CHECK(printed == otlp_json_pb::toOtlpJson(reference), "the printed JSON differs from protobuf's: " + printed);
  flat::Batch again;
  FUZZ_CHECK(otlp_json::decode(printed, &again).status.isOk(), "printed OTLP/JSON does not read back");
  FUZZ_CHECK(flat::encode(again) == wire, "printed OTLP/JSON reads back as another request");
  fuzz::exerciseReceivedRequest(reference);
  return 0;
}
