// Gzip compression through Intel ISA-L (igzip) for the fast levels 1-3 on large buffers: on profile
// payloads level 1 compresses about 4x faster than libdeflate's level 1, within 1-2% of its size.
// Below kIsalMinBytes the whole pprof round trip measured faster with libdeflate although ISA-L wins
// a compression-only loop (small profiles ran ~20% slower with it: its per-call state and AVX-512
// code cost the surrounding work more than the compression saves). Internal to core/compression;
// callers use compression::compress().
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/status.h"

namespace proflow::compression::internal {

// Levels ISA-L implements; higher levels go to libdeflate.
inline constexpr int kIsalMaxLevel = 3;
// Smaller inputs go to libdeflate (see above).
inline constexpr size_t kIsalMinBytes = 1u << 20;

// Compresses `in` as one gzip member at `level` (1..kIsalMaxLevel) into `out`.
Status isalGzipCompress(std::string_view in, std::string& out, int level);

}  // namespace proflow::compression::internal
