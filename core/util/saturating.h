// Arithmetic on numbers read from the network or a file (clock values, durations, sample values): a
// lying input may hold anything, so results saturate at the int64 range instead of overflowing
// (undefined behaviour). The overflow builtins keep the common case to an instruction and a branch:
// the converters call these once per event.
#pragma once

#include <cstdint>
#include <limits>

namespace proflow {

inline int64_t clampToInt64(__int128 v) {
  if (v > std::numeric_limits<int64_t>::max()) return std::numeric_limits<int64_t>::max();
  if (v < std::numeric_limits<int64_t>::min()) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

// On overflow the exact result lies beyond the end of the range that `positive` names.
inline int64_t saturationLimit(bool positive) {
  return positive ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

inline int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? saturationLimit(b > 0) : r;
}
inline int64_t saturatingSub(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_sub_overflow(a, b, &r) ? saturationLimit(b < 0) : r;
}
inline int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? saturationLimit((a < 0) == (b < 0)) : r;
}

}  // namespace proflow
