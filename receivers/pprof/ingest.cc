#include "receivers/pprof/ingest.h"

#include <algorithm>

#include "core/formats/pprof/pprof_to_otlp.h"

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

Status deliverProfile(const ::proflow::pprof::Profile& profile, const Attributes& resource_attributes,
                      ProfilesConsumer& next, telemetry::ComponentTelemetry& telemetry) {
  ::proflow::pprof::PprofToOtlpOptions options;
  options.resource_attributes = resource_attributes;
  options.scope_name = "proflow.receiver.pprof";
  otlp::Request request;
  if (Status s = ::proflow::pprof::pprofToOtlp(profile, options, &request); !s.isOk()) {
    telemetry.record(telemetry::Event::kReceived, {});
    telemetry.record(telemetry::Event::kRefused, {});
    return s;
  }
  return next.consume(Batch(std::move(request)));
}

net::HttpResponse errorResponse(const Status& status) {
  net::HttpResponse r = net::HttpResponse::text(httpStatusFor(status), status.message() + "\n");
  if (status.retryable()) {
    r.status = 429;
    const int64_t secs = std::max<int64_t>(1, (status.retryAfter().count() + 999) / 1000);
    r.headers.emplace_back("Retry-After", std::to_string(secs));
  }
  return r;
}

}  // namespace proflow::receivers::pprof
