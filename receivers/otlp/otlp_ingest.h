// What both OTLP transports do with a request body: decode it straight into a flat batch, validate
// it (core/flat/flat_validate.cc: the one set of checks every OTLP entry point applies), hand it to
// the pipelines, and build the OTLP answer (partial success when some profiles were invalid).
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

#include "core/component/consumer.h"
#include "core/model/client_metadata.h"
#include "core/model/otlp_types.h"
#include "core/telemetry/component_telemetry.h"

namespace proflow::receivers::otlp {

struct [[nodiscard]] IngestResult {
  Status status;           // non-OK: the whole request was refused
  ::proflow::otlp::Response response;  // on OK, possibly with partial_success
};

// Bytes of the in-flight budget a request of `serialized` bytes holds while it is decoded and
// validated: the serialized bytes plus the flat batch decoded from it (at most about as large again).
inline size_t otlpDecodeClaim(size_t serialized) { return 2 * serialized; }

// An ExportProfilesServiceRequest in protobuf wire form. `claim_memory` (optional) is charged with
// what decoding allocates as it allocates it (flat::DecodeOptions::claim_memory); its refusal is
// the answer as is (429 / RESOURCE_EXHAUSTED while the budget is busy).
// `metadata`: what the receiver keeps of the request (include_metadata), attached to the batch.
IngestResult ingestWire(std::string_view wire, ProfilesConsumer& next, telemetry::ComponentTelemetry& telemetry,
                        std::function<Status(size_t)> claim_memory = {}, ClientMetadataPtr metadata = nullptr);

// The same request in OTLP/JSON, decoded straight into a flat batch (core/formats/otlp_json);
// `claim_memory` as for ingestWire. A receiver taking bodies of up to `max_body` bytes (0: no
// bound) refuses (413 / RESOURCE_EXHAUSTED) a document whose decoding needs more than
// kJsonDecodeBytesPerBodyLimitByte times that (the batch with the next growth of its columns) as
// soon as decoding gets there: an honest document decodes into about its size or less, and
// without the bound one body of dense small values could hold most of the in-flight budget.
inline constexpr size_t kJsonDecodeBytesPerBodyLimitByte = 4;
IngestResult ingestJson(std::string_view json, ProfilesConsumer& next, telemetry::ComponentTelemetry& telemetry,
                        std::function<Status(size_t)> claim_memory = {}, size_t max_body = 0,
                        ClientMetadataPtr metadata = nullptr);

}  // namespace proflow::receivers::otlp
