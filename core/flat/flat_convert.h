// flat::Batch <-> otlp::Request, for cold edges and for components that still read the protobuf
// request. Both go through the OTLP wire form: the encoder and decoder are the only code that knows
// the field layout, and the copy costs what a protobuf deep copy costs.
#pragma once

#include "core/flat/flat_batch.h"
#include "core/model/otlp_types.h"
#include "core/util/status.h"

namespace proflow::flat {

// Replaces `out` with the content of `request` (no validation: the request is trusted).
Status fromRequest(const otlp::Request& request, Batch* out);

// Replaces `out` with the content of `batch`.
Status toRequest(const Batch& batch, otlp::Request* out);

}  // namespace proflow::flat
