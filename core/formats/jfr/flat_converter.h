// JFR -> flat::Batch. One Profile per (sample type, period type); every event becomes one value plus
// its timestamp (timestamps_unix_nano) in the sample keyed by {stack, attributes, link}, so events
// survive, not only aggregates.
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
//
// Events are logged per profile as they arrive (sample row, timestamp, value once values differ)
// and written at finish() into the batch's columns, each sample's run contiguous and in event
// order; a companion profile (bytes, delay) shares its primary's timestamp ranges.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <span>

#include "core/flat/flat_batch.h"
#include "core/formats/jfr/chunk.h"
#include "core/formats/jfr/convert_options.h"

namespace proflow::jfr {

// Incremental converter: feed chunks as they are read, then finish() into the batch.
class FlatConverter {
 public:
  // Dictionary entries are interned into `out` as they arrive (existing entries are reused); `out`
  // must outlive the converter.
  FlatConverter(flat::Batch* out, const ConvertOptions& options = {});
  ~FlatConverter();
  FlatConverter(const FlatConverter&) = delete;
  FlatConverter& operator=(const FlatConverter&) = delete;

  // Converts the selected events of one loaded chunk. Returns false if an event was malformed (the
  // events before it are kept); chunk.error() says where.
  bool addChunk(Chunk& chunk);
  // Appends one resource (no attributes; the caller adds them) with one scope holding the profiles.
  // `original` is stored when keep_original_payload is set. Call once.
  void finish(std::span<const uint8_t> original = {});

  uint64_t events() const;
  uint64_t samples() const;
  void setClaimed(size_t bytes);
  const Status& refused() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Whole-input helpers: read every chunk, convert, finish into `out`.
ConvertResult convertToFlat(std::span<const uint8_t> jfr, const ConvertOptions& options, flat::Batch* out);
// Streaming: memory holds one chunk at a time (plus the output). keep_original_payload is ignored.
ConvertResult convertToFlat(std::istream& jfr, const ConvertOptions& options, flat::Batch* out);

}  // namespace proflow::jfr
