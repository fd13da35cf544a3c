#include "receivers/pprof/ingest.h"

#include <algorithm>

#include "core/formats/pprof/pprof_to_otlp.h"
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
    r.headers.emplace_back("Retry-After", net::retryAfterSeconds(status));
  }
  return r;
}

}  // namespace proflow::receivers::pprof
