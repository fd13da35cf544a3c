// What both OTLP transports do with a decoded request (in a batch, usually on an arena): validate it,
// hand it to the pipelines, and build the OTLP answer (partial success when some profiles were
// invalid).
#pragma once

#include "core/consumer.h"
#include "core/otlp_types.h"
#include "core/telemetry/component_telemetry.h"

namespace proflow::receivers::otlp {

struct IngestResult {
  Status status;           // non-OK: the whole request was refused
  ::proflow::otlp::Response response;  // on OK, possibly with partial_success
};

IngestResult ingest(Batch batch, ProfilesConsumer& next,
                    telemetry::ComponentTelemetry& telemetry);

}  // namespace proflow::receivers::otlp
