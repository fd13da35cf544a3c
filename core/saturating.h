// Arithmetic on numbers read from the network or a file (clock values, durations, sample values): a
// lying input may hold anything, so results saturate at the int64 range instead of overflowing
// (undefined behaviour).
#pragma once

#include <cstdint>
#include <limits>

namespace proflow {

inline int64_t clampToInt64(__int128 v) {
  if (v > std::numeric_limits<int64_t>::max()) return std::numeric_limits<int64_t>::max();
  if (v < std::numeric_limits<int64_t>::min()) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

inline int64_t saturatingAdd(int64_t a, int64_t b) { return clampToInt64(static_cast<__int128>(a) + b); }
inline int64_t saturatingSub(int64_t a, int64_t b) { return clampToInt64(static_cast<__int128>(a) - b); }
inline int64_t saturatingMul(int64_t a, int64_t b) { return clampToInt64(static_cast<__int128>(a) * b); }

}  // namespace proflow
