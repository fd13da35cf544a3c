// Gzip compression through Intel ISA-L (igzip) for the fast levels 1-3: on profile payloads (varints,
// hex ids, symbol names) level 1 runs about 4-5x faster than libdeflate's level 1 for the same size
// within 1-2%. Internal to core/compression; callers use compression::compress().
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"

namespace proflow::compression::internal {

// Levels ISA-L implements; higher levels go to libdeflate.
inline constexpr int kIsalMaxLevel = 3;

// Compresses `in` as one gzip member at `level` (1..kIsalMaxLevel) into `out`.
Status isalGzipCompress(std::string_view in, std::string& out, int level);

}  // namespace proflow::compression::internal
