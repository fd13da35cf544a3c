// JFR -> OTLP profiles. One Profile per (sample type, period type); every event becomes one value plus its
// timestamp (timestamps_unix_nano) in the sample keyed by {stack, attributes, link}, so events survive,
// not only aggregates.
//
// Mapping (event -> sample types, value per event):
//   jdk.ExecutionSample            cpu/nanoseconds (or wall/nanoseconds when async-profiler ran with
//                                  event=wall), value = sampling period
//   jdk.NativeMethodSample         native_method/nanoseconds, value = its sampling period
//   profiler.WallClockSample       wall/nanoseconds, value = samples x wall interval
//   jdk.ObjectAllocationInNewTLAB  alloc_in_new_tlab_objects/count [1], alloc_in_new_tlab_bytes/bytes [tlabSize]
//   jdk.ObjectAllocationOutsideTLAB alloc_outside_tlab_objects/count [1], alloc_outside_tlab_bytes/bytes
//                                  [allocationSize]
//   jdk.ObjectAllocationSample     alloc_sample_objects/count [1], alloc_sample_bytes/bytes [weight]
//   jdk.JavaMonitorEnter           contentions/count [1], delay/nanoseconds [duration] (period type mutex)
//   jdk.ThreadPark                 contentions/count [1], delay/nanoseconds [duration] (period type block)
//   profiler.LiveObject            live/count [1]
//   profiler.Malloc                malloc_objects/count [1], malloc_bytes/bytes [size]
// Frames: Function name `package.Class.method` (dots), Line.line = line number, inlined frames folded into
// the Location of their physical frame (lines[0] innermost), Location attribute profile.frame.type
// (jvm / native / kernel). Native frames of async-profiler: name = symbol, Mapping filename = library.
// Sample attributes: thread.name, Pyroscope context labels (by contextId), span_name. Links: spanId with
// traceIdHi/traceIdLo.
#pragma once

#include <istream>
#include <span>

#include "core/formats/jfr/convert_options.h"
#include "core/model/otlp_types.h"

namespace proflow::jfr {

// The conversion (convertToFlat, flat_converter.h: what the receivers and `proflow convert` run)
// seen as a protobuf request appended to `out`, for tests and benchmarks that read requests.
ConvertResult convertToOtlp(std::span<const uint8_t> jfr, const ConvertOptions& options, otlp::Request* out);
// Streaming: memory holds one chunk at a time (plus the output). keep_original_payload is ignored.
ConvertResult convertToOtlp(std::istream& jfr, const ConvertOptions& options, otlp::Request* out);

}  // namespace proflow::jfr
