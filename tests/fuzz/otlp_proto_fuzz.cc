// OTLP profiles protobuf as the OTLP receivers take it (gRPC, HTTP, broker messages, the persistent
// queue): the raw bytes decoded straight into a flat batch, then the receivers' validation, then what
// the pipeline does with a batch (encode for the OTLP exporters and queues, pprof for the
// pprof-speaking exporters, merge for the batch processor, split for send_batch_max_size).
//
// protobuf's own parser is the reference: the flat decoder must accept exactly the bytes protobuf
// accepts and read the same meaning from them, whatever the wire layout (unpacked or split repeated
// fields, repeated singular messages, unknown fields and groups, overlong varints), and within the
// decoder's documented memory per body byte.
#include <string>
#include <string_view>
#include <vector>

#include <google/protobuf/stubs/logging.h>

#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "core/flat/flat_merge.h"
#include "core/flat/flat_split.h"
#include "core/formats/pprof/flat_to_pprof.h"
#include "tests/fuzz/fuzz_common.h"
#include "tests/support/pprof_request.h"

namespace {

using namespace proflow;

// The batch encoded, its announced size exact.
std::string encoded(const flat::Batch& batch, std::string_view what) {
  const std::string wire = flat::encode(batch);
  FUZZ_CHECK(wire.size() == flat::encodedSize(batch), std::string(what) + ": encodedSize is not the encoded size");
  return wire;
}

// Encoded bytes read back by protobuf, which must accept them.
otlp::Request parsed(const std::string& wire, std::string_view what) {
  otlp::Request request;
  FUZZ_CHECK(request.ParseFromString(wire), std::string(what) + ": encoded batch is not a valid request");
  return request;
}

// Encoded bytes decoded again with the receivers' checks: nothing refused, nothing removed.
void checkRevalidates(const std::string& wire, std::string_view what) {
  flat::Batch again;
  const flat::DecodeResult r = flat::decode(wire, &again);
  FUZZ_CHECK(r.request.isOk() && r.rejected_profiles == 0,
             std::string(what) + ": " + r.request.message() + (r.profile_errors.empty() ? "" : r.profile_errors[0]));
}

std::string describe(const std::vector<pprof::PprofFromOtlp>& profiles) {
  std::string out;
  for (const auto& p : profiles) out += p.profile.SerializeAsString();
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // protobuf logs every string that is not UTF-8; the verdict is what is compared.
  static const bool quiet = (google::protobuf::SetLogHandler(nullptr), true);
  (void)quiet;
  const std::string_view wire(reinterpret_cast<const char*>(data), size);

  // Structure: the same verdict as protobuf, and the same meaning.
  flat::DecodeOptions structural;
  structural.validate = false;
  flat::Batch batch;
  const flat::DecodeResult decoded = flat::decode(wire, &batch, structural);
  // Cost follows the input: whatever the layout (fields split by others, lists sent in parts),
  // the decode holds at most its documented memory per body byte (run_fuzzers.sh also caps each
  // malloc, FUZZ_MALLOC_MB).
  FUZZ_CHECK(decoded.peak_memory_bytes <= flat::kMaxDecodeBytesPerWireByte * size + flat::kDecodeBytesBase,
             "decoding held " + std::to_string(decoded.peak_memory_bytes) + " bytes for a body of " +
                 std::to_string(size));
  otlp::Request want;
  const bool protobuf_ok = size <= static_cast<size_t>(INT32_MAX) && want.ParseFromArray(data, static_cast<int>(size));
  FUZZ_CHECK(decoded.request.isOk() == protobuf_ok,
             protobuf_ok ? "flat refused what protobuf parses: " + decoded.request.message()
                         : std::string("flat accepted what protobuf refuses"));
  if (!protobuf_ok) {
    FUZZ_CHECK(!decoded.request.message().empty(), "a refusal without a message");
    return 0;
  }
  // Unknown fields are not kept, except inside the nested values a batch keeps as their bytes.
  want.DiscardUnknownFields();
  otlp::Request got = parsed(encoded(batch, "decoded"), "decoded");
  got.DiscardUnknownFields();
  FUZZ_CHECK(got.SerializeAsString() == want.SerializeAsString(),
             "flat read a different meaning than protobuf");

  // The receivers' checks (a protobuf request is checked by the same code, through its wire form).
  const flat::DecodeResult v = flat::validateAndPrune(&batch, decoded.samples_with_unknown_fields);
  if (!v.request.isOk()) return 0;
  const std::string validated = encoded(batch, "validated");
  const otlp::Request kept = parsed(validated, "validated");
  checkRevalidates(validated, "a validated batch");

  // The pprof exporters: the batch converts as the same content parsed by protobuf does.
  std::vector<pprof::PprofFromOtlp> from_flat, from_request;
  const Status flat_status = pprof::flatToPprof(batch, &from_flat);
  const Status request_status = pprof::otlpToPprof(kept, &from_request);
  FUZZ_CHECK(flat_status.isOk() == request_status.isOk(), flat_status.message() + " vs " + request_status.message());
  if (flat_status.isOk())
    FUZZ_CHECK(describe(from_flat) == describe(from_request), "flatToPprof differs after a protobuf round trip");

  // The batch processor: appending a batch twice (the second time onto what the first made).
  flat::Batch merged;
  flat::Merger merger(&merged);
  merger.append(batch);
  merger.append(batch);
  // (Counted through the scopes: validation leaves the profiles it removed unreferenced.)
  const uint64_t profiles = batch.counts().profiles;
  FUZZ_CHECK(merged.counts().profiles == 2 * profiles, "merge lost or made profiles");
  checkRevalidates(flat::encode(merged), "a merged batch");

  // send_batch_max_size: one profile per part, every profile in exactly one part.
  uint64_t parts_profiles = 0;
  for (const flat::Batch& part : flat::splitByProfiles(flat::Batch(batch), 1)) {
    FUZZ_CHECK(part.counts().profiles <= 1, "a part holds more than one profile");
    parts_profiles += part.counts().profiles;
    checkRevalidates(flat::encode(part), "a split part");
  }
  FUZZ_CHECK(parts_profiles == profiles, "split lost or made profiles");
  return 0;
}
