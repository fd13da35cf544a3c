#include "receivers/otlp/otlp_ingest.h"

#include "core/otlp_validate.h"

namespace proflow::receivers::otlp {

IngestResult ingest(Batch batch, ProfilesConsumer& next, telemetry::ComponentTelemetry& telemetry) {
  IngestResult result;
  ::proflow::otlp::Request& request = batch.request();
  ValidationResult v = validateAndPrune(&request);
  if (!v.request.isOk()) {
    // Never reaches the pipeline edge that counts, so count here: received and refused.
    telemetry.record(telemetry::Event::kReceived, countRequest(request));
    telemetry.record(telemetry::Event::kRefused, countRequest(request));
    result.status = v.request;
    return result;
  }
  if (v.rejected_profiles > 0) {
    const BatchCounts rejected{0, static_cast<uint64_t>(v.rejected_profiles), 0};
    telemetry.record(telemetry::Event::kReceived, rejected);
    telemetry.record(telemetry::Event::kRefused, rejected);
    auto* partial = result.response.mutable_partial_success();
    partial->set_rejected_profiles(v.rejected_profiles);
    std::string msg;
    for (const auto& e : v.profile_errors) {
      if (msg.size() > 4096) break;  // keep responses small
      msg += (msg.empty() ? "" : "; ") + e;
    }
    partial->set_error_message(msg);
  }
  if (batch.empty()) return result;  // nothing left to deliver; still a success per OTLP
  result.status = next.consume(std::move(batch));
  return result;
}

}  // namespace proflow::receivers::otlp
