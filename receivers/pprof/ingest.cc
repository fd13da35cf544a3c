#include "receivers/pprof/ingest.h"

#include <algorithm>

#include "core/formats/pprof/pprof_to_flat.h"
#include "core/net/http_util.h"

namespace proflow::receivers::pprof {

void setAttribute(Attributes& attrs, std::string key, std::string value) {
  for (auto& [k, v] : attrs) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  attrs.emplace_back(std::move(key), std::move(value));
}

namespace {

// Runs `convert(options, &batch)` and consumes the batch; refusals are counted here.
template <class Convert>
Status convertAndDeliver(const Attributes& resource_attributes, ProfilesConsumer& next,
                         telemetry::ComponentTelemetry& telemetry, const Convert& convert,
                         std::function<Status(size_t)> reserve_memory = {}) {
  ::proflow::pprof::PprofToOtlpOptions options;
  options.reserve_memory = std::move(reserve_memory);
  options.resource_attributes = resource_attributes;
  options.scope_name = "proflow.receiver.pprof";
  flat::Batch batch;
  if (Status s = convert(options, &batch); !s.isOk()) {
    telemetry.record(telemetry::Event::kReceived, {});
    telemetry.record(telemetry::Event::kRefused, {});
    return s;
  }
  return next.consume(Batch(std::move(batch)));
}

}  // namespace

Status deliverProfile(const ::proflow::pprof::Profile& profile, const Attributes& resource_attributes,
                      ProfilesConsumer& next, telemetry::ComponentTelemetry& telemetry) {
  return convertAndDeliver(resource_attributes, next, telemetry, [&](const auto& options, flat::Batch* out) {
    return ::proflow::pprof::pprofToFlat(profile, options, out);
  });
}

Status deliverPprofBytes(std::string_view body, const ::proflow::pprof::DecodeOptions& decode,
                         const Attributes& resource_attributes, ProfilesConsumer& next,
                         telemetry::ComponentTelemetry& telemetry, std::function<Status(size_t)> reserve_memory) {
  return convertAndDeliver(
      resource_attributes, next, telemetry,
      [&](const auto& options, flat::Batch* out) {
        return ::proflow::pprof::pprofBytesToFlat(body, options, out, decode);
      },
      std::move(reserve_memory));
}

net::HttpResponse errorResponse(const Status& status) {
  net::HttpResponse r = net::HttpResponse::text(httpStatusFor(status), status.message() + "\n");
  if (status.retryable()) {
    r.status = 429;
    r.headers.emplace_back("Retry-After", net::retryAfterSeconds(status));
  }
  return r;
}

}  // namespace proflow::receivers::pprof
