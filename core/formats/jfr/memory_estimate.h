// What converting a JFR recording to OTLP allocates, for receivers that claim memory before they
// decode (their in-flight budget). Two parts:
//   - before conversion, from a walk over chunk headers and event size fields only (no decoding):
//     scanShape() + estimateUpfrontBytes() cover the input kept, the per-event values and timestamps,
//     and the chunk's own tables (constant-pool index, metadata);
//   - during conversion, the converter claims ahead what it is about to add for each new OTLP
//     sample, stack, location and function (ConvertOptions::reserve_memory), since how many events
//     are distinct is only known while reading them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace proflow::jfr {

struct JfrShape {
  uint64_t bytes = 0;              // input size
  uint64_t chunks = 0;
  uint64_t events = 0;             // every event of every chunk (profiling, checkpoint, metadata, others)
  uint64_t max_pool_bytes = 0;     // largest sum of checkpoint (constant-pool) event sizes of one chunk
  uint64_t max_metadata_bytes = 0; // largest metadata event of one chunk
};

// Walks the chunks and the size field of every event. Stops at the first malformed header or size
// (the conversion refuses those itself); what was walked until then is counted.
JfrShape scanShape(std::span<const uint8_t> jfr);

// Bytes the conversion holds at most apart from new samples and dictionary entries (see the .cc for
// why each term bounds its part). Includes the input itself.
size_t estimateUpfrontBytes(const JfrShape& shape);

// Claimed ahead by the converter as it creates output (see the .cc for the sizes).
// Sizes on the high side: arena messages with their repeated-field growth slack, hash-table slots at
// their lowest load (the flat indexes are between 1/4 and 1/2 full) and node-map entries.
namespace cost {
// A new sample, per profile: the OTLP Sample and its SampleIndex slot; once: the span attribute or
// link when the event has one.
inline constexpr size_t kSample = 512;
inline constexpr size_t kEventKey = 160;   // a new lookup slot by an event's raw pool keys
inline constexpr size_t kAttribute = 8;    // one attribute index on a sample, per profile
inline constexpr size_t kStackKey = 128;   // a stack trace key seen first in a chunk: cache slot + stack entry
inline constexpr size_t kFrame = 224;      // per frame of such a stack: Location + Line + interning, the
                                           // resolved frame and its copy in the cross-chunk signature
inline constexpr size_t kFunction = 320;   // a method seen first in a chunk: Function, interning, cache
inline constexpr size_t kThread = 160;     // a thread seen first in a chunk: cache slot + attribute
inline constexpr size_t kReserveStep = 4u << 20;  // claimed ahead in steps of at least this much
}  // namespace cost

}  // namespace proflow::jfr
