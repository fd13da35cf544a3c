// JFR -> flat::Batch: the mapping of otlp_converter.h (profiles per event type, per-event values and
// timestamps, frames, attributes, links), written straight into the flat batch. Events are logged
// per profile as they arrive (sample row, timestamp, value once values differ) and written at
// finish() into the batch's columns, each sample's run contiguous and in event order; a companion
// profile (bytes, delay) shares its primary's timestamp ranges.
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
