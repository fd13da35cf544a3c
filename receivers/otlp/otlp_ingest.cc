#include "receivers/otlp/otlp_ingest.h"

#include <memory>

#include "core/flat/flat_decode.h"

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

}  // namespace

IngestResult ingestWire(std::string_view wire, ProfilesConsumer& next, telemetry::ComponentTelemetry& telemetry,
                        std::function<Status(size_t)> claim_memory) {
  IngestResult result;
  auto batch = std::make_shared<flat::Batch>();
  flat::DecodeOptions options;
  options.validate = false;  // below, once the request is counted
  options.claim_memory = std::move(claim_memory);
  flat::DecodeResult decoded = flat::decode(wire, batch.get(), options);
  if (!decoded.request.isOk()) {
    refusedHere(telemetry, {});
    if (decoded.request.code() != StatusCode::kInvalidArgument) {  // the memory claim's refusal
      result.status = decoded.request;
      return result;
    }
    result.status = Status::invalid("request is not a valid ExportProfilesServiceRequest protobuf (" +
                                    decoded.request.message() + ")");
    return result;
  }
  flat::DecodeResult v = flat::validateAndPrune(batch.get(), decoded.samples_with_unknown_fields);
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
  result.status = next.consume(Batch(std::shared_ptr<const flat::Batch>(std::move(batch))));
  return result;
}

IngestResult ingestRequest(const ::proflow::otlp::Request& request, ProfilesConsumer& next,
                           telemetry::ComponentTelemetry& telemetry) {
  std::string wire;
  if (!request.SerializeToString(&wire)) {
    refusedHere(telemetry, {});
    return {Status::invalid("request could not be encoded as an ExportProfilesServiceRequest"), {}};
  }
  return ingestWire(wire, next, telemetry);
}

}  // namespace proflow::receivers::otlp
