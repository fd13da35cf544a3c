// What push and scrape do with a decoded pprof: convert it to a flat batch with the resource
// attributes of its source and hand it to the pipelines. Also the HTTP answer for a status.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/component/consumer.h"
#include "core/formats/pprof/pprof_codec.h"
#include "core/net/http_types.h"
#include "core/telemetry/component_telemetry.h"

namespace proflow::receivers::pprof {

using Attributes = std::vector<std::pair<std::string, std::string>>;

// Sets `key` to `value`, replacing an earlier value of the same key (later sources win).
void setAttribute(Attributes& attrs, std::string key, std::string value);

// Converts `profile` (valid, from decodeProfile) and consumes it. A profile the converter refuses is
// counted received + refused here, since it never reaches the counting pipeline edge.
Status deliverProfile(const ::proflow::pprof::Profile& profile, const Attributes& resource_attributes,
                      ProfilesConsumer& next, telemetry::ComponentTelemetry& telemetry);

// The same for a pushed body (gzip/zstd/raw pprof): decoded and converted in one pass over its wire
// bytes (pprofBytesToFlat: into a flat batch), bounded by `decode.limits`. Refusals are counted the same way.
// `reserve_memory` (optional) is asked for what conversion will hold before it starts (see
// PprofToOtlpOptions::reserve_memory).
Status deliverPprofBytes(std::string_view body, const ::proflow::pprof::DecodeOptions& decode,
                         const Attributes& resource_attributes, ProfilesConsumer& next,
                         telemetry::ComponentTelemetry& telemetry,
                         std::function<Status(size_t)> reserve_memory = {});

// text/plain answer for a refusal: the status' HTTP code, except that retryable refusals become
// 429 with Retry-After (seconds, at least 1) so clients back off and send again.
net::HttpResponse errorResponse(const Status& status);

}  // namespace proflow::receivers::pprof
