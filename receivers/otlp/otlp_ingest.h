// What both OTLP transports do with a decoded request (in a batch, usually on an arena): validate it,
// hand it to the pipelines, and build the OTLP answer (partial success when some profiles were
// invalid).
#pragma once

#include <cstddef>

#include "core/consumer.h"
#include "core/otlp_types.h"
#include "core/telemetry/component_telemetry.h"

namespace proflow::receivers::otlp {

struct IngestResult {
  Status status;           // non-OK: the whole request was refused
  ::proflow::otlp::Response response;  // on OK, possibly with partial_success
};

// Bytes of the in-flight budget a request of `serialized` bytes holds while it is parsed and
// validated: the serialized bytes plus the request parsed onto an arena (about as large again).
inline size_t otlpDecodeClaim(size_t serialized) { return 2 * serialized; }

IngestResult ingest(Batch batch, ProfilesConsumer& next,
                    telemetry::ComponentTelemetry& telemetry);

}  // namespace proflow::receivers::otlp
