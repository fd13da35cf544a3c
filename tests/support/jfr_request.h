// The JFR conversion (convertToFlat, core/formats/jfr/flat_converter.h: what the receivers and
// `proflow convert` run) seen as a protobuf request, for tests and benchmarks that read requests.
#pragma once

#include <istream>
#include <span>

#include "core/formats/jfr/convert_options.h"
#include "core/model/otlp_types.h"

namespace proflow::jfr {

// Appends the conversion to `out` (through a flat batch holding `out`'s content).
ConvertResult convertToOtlp(std::span<const uint8_t> jfr, const ConvertOptions& options, otlp::Request* out);
// Streaming: memory holds one chunk at a time (plus the output). keep_original_payload is ignored.
ConvertResult convertToOtlp(std::istream& jfr, const ConvertOptions& options, otlp::Request* out);

}  // namespace proflow::jfr
