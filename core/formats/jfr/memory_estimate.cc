#include "core/formats/jfr/memory_estimate.h"

#include <algorithm>
#include <string>

#include "core/formats/jfr/byte_reader.h"
#include "core/formats/jfr/chunk.h"

namespace proflow::jfr {

JfrShape scanShape(std::span<const uint8_t> jfr) {
  JfrShape shape;
  shape.bytes = jfr.size();
  uint64_t offset = 0;
  while (offset < jfr.size()) {
    const uint8_t* p = jfr.data() + offset;
    const size_t available = jfr.size() - offset;
    ChunkHeader h;
    std::string error;
    if (!parseChunkHeader(p, available, &h, &error) || h.size < kChunkHeaderSize || h.size > available) break;
    ++shape.chunks;
    uint64_t pool_bytes = 0;
    uint64_t pos = kChunkHeaderSize;
    while (pos < h.size) {
      ByteReader r(p, p + pos, p + h.size);
      const uint64_t size = r.varint();
      const uint64_t type = r.varint();
      if (!r.ok() || size < r.offset() - pos || size > h.size - pos) break;
      ++shape.events;
      if (type == 1) pool_bytes += size;
      if (type == 0) shape.max_metadata_bytes = std::max(shape.max_metadata_bytes, size);
      pos += size;
    }
    shape.max_pool_bytes = std::max(shape.max_pool_bytes, pool_bytes);
    offset += h.size;
  }
  return shape;
}

size_t estimateUpfrontBytes(const JfrShape& s) {
  // Per event: a profiling event appends one value and one timestamp to its profile and, for paired
  // profiles (objects/bytes, count/delay), one more of each to the companion: at most 4 x 8 bytes,
  // doubled because repeated fields grow by doubling. Counting every event (checkpoints and events
  // that are not converted included) only errs high.
  const size_t per_event = 64;
  // Per byte of constant pools (chunk-scoped: the largest chunk counts): the pool index keeps a
  // 16-byte slot per entry in a table kept between 3/8 and 3/4 full (43 bytes per entry at worst). An
  // entry takes at least its key, and a pool large enough to matter (over 16384 distinct keys) needs
  // 3-byte keys on average: at most 43 / 3 = 14.3 bytes per pool byte, 16 with rounding. The
  // converter's own tables (stacks, threads, samples) are claimed as it fills them.
  const size_t per_pool_byte = 16;
  // Per byte of metadata (parsed into class and field descriptors with their names, plus the bytes
  // kept to recognise a repeated metadata event): an element takes at least a few bytes and becomes
  // a descriptor of under 128 bytes.
  const size_t per_metadata_byte = 64;
  return static_cast<size_t>(s.bytes + s.events * per_event + s.max_pool_bytes * per_pool_byte +
                             s.max_metadata_bytes * per_metadata_byte);
}

}  // namespace proflow::jfr
