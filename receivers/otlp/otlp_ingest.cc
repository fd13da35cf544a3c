#include "receivers/otlp/otlp_ingest.h"

#include <memory>

#include "core/flat/flat_decode.h"
#include "core/formats/otlp_json/otlp_json.h"

namespace proflow::receivers::otlp {
namespace {

BatchCounts countsOf(const flat::Batch& b) {
  const flat::Counts c = b.counts();
  return {c.resources, c.profiles, c.samples};
}

void refusedHere(telemetry::ComponentTelemetry& telemetry, const BatchCounts& counts) {
  // Never reaches the pipeline edge that counts, so count here: received and refused.
  telemetry.record(telemetry::Event::kReceived, counts);
  telemetry.record(telemetry::Event::kRefused, counts);
}

// A decoded request (counted from here on): validated, and what is valid handed to the pipelines.
IngestResult ingestDecoded(std::shared_ptr<flat::Batch> batch, const std::vector<uint32_t>& samples_with_unknown_fields,
                           ProfilesConsumer& next, telemetry::ComponentTelemetry& telemetry, ClientMetadataPtr metadata) {
  IngestResult result;
  flat::DecodeResult v = flat::validateAndPrune(batch.get(), samples_with_unknown_fields);
  if (!v.request.isOk()) {
    refusedHere(telemetry, countsOf(*batch));
    result.status = v.request;
    return result;
  }
  if (v.rejected_profiles > 0) {
    refusedHere(telemetry, BatchCounts{0, static_cast<uint64_t>(v.rejected_profiles), 0});
    auto* partial = result.response.mutable_partial_success();
    partial->set_rejected_profiles(v.rejected_profiles);
    std::string msg;
    for (const auto& e : v.profile_errors) {
      if (msg.size() > 4096) break;  // keep responses small
      msg += (msg.empty() ? "" : "; ") + e;
    }
    partial->set_error_message(msg);
  }
  if (batch->empty()) return result;  // nothing left to deliver; still a success per OTLP
  // Moved in, not shared: a transform after the receiver edits the request without copying it.
  Batch out(std::move(*batch));
  out.setMetadata(std::move(metadata));
  result.status = next.consume(std::move(out));
  return result;
}

}  // namespace

IngestResult ingestWire(std::string_view wire, ProfilesConsumer& next, telemetry::ComponentTelemetry& telemetry,
                        std::function<Status(size_t)> claim_memory, ClientMetadataPtr metadata) {
  auto batch = std::make_shared<flat::Batch>();
  flat::DecodeOptions options;
  options.validate = false;  // below, once the request is counted
  options.claim_memory = std::move(claim_memory);
  flat::DecodeResult decoded = flat::decode(wire, batch.get(), options);
  if (!decoded.request.isOk()) {
    refusedHere(telemetry, {});
    if (decoded.request.code() != StatusCode::kInvalidArgument) return {decoded.request, {}};  // the claim's refusal
    return {Status::invalid("request is not a valid ExportProfilesServiceRequest protobuf (" +
                            decoded.request.message() + ")"),
            {}};
  }
  return ingestDecoded(std::move(batch), decoded.samples_with_unknown_fields, next, telemetry, std::move(metadata));
}

IngestResult ingestJson(std::string_view json, ProfilesConsumer& next, telemetry::ComponentTelemetry& telemetry,
                        std::function<Status(size_t)> claim_memory, size_t max_body, ClientMetadataPtr metadata) {
  auto batch = std::make_shared<flat::Batch>();
  otlp_json::DecodeLimits limits;
  limits.claim = std::move(claim_memory);
  limits.max_memory = kJsonDecodeBytesPerBodyLimitByte * max_body;
  limits.max_memory_key = std::to_string(kJsonDecodeBytesPerBodyLimitByte) + " x max_request_body_size";
  otlp_json::DecodeResult decoded = otlp_json::decode(json, batch.get(), limits);
  if (!decoded.status.isOk()) {
    refusedHere(telemetry, {});
    return {decoded.status, {}};  // INVALID_ARGUMENT naming field and byte, or the claim's refusal
  }
  return ingestDecoded(std::move(batch), decoded.samples_with_unknown_fields, next, telemetry, std::move(metadata));
}

}  // namespace proflow::receivers::otlp
