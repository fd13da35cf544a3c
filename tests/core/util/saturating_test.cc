// Saturating arithmetic equals the exact result clamped to the int64 range, at and around the
// edges of the range and on a spread of ordinary values.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/util/saturating.h"

namespace proflow {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

std::vector<int64_t> operands() {
  return {0, 1, -1, 2, -2, 3, 1000, -1000, 1000000000, -1000000000,
          // around sqrt(2^63), where products start to overflow
          3037000499, 3037000500, -3037000499, -3037000500,
          int64_t{1} << 32, -(int64_t{1} << 32), int64_t{1} << 62, -(int64_t{1} << 62),
          kMax, kMax - 1, kMax / 2, kMax / 2 + 1, kMin, kMin + 1, kMin / 2, kMin / 2 - 1,
          // nanoseconds since the epoch, as JFR and OTLP timestamps are
          1764720000000000000, -1764720000000000000};
}

TEST(Saturating, AddSubAndMulAreTheExactResultClampedToInt64) {
  for (int64_t a : operands()) {
    for (int64_t b : operands()) {
      SCOPED_TRACE(std::to_string(a) + ", " + std::to_string(b));
      EXPECT_EQ(saturatingAdd(a, b), clampToInt64(static_cast<__int128>(a) + b));
      EXPECT_EQ(saturatingSub(a, b), clampToInt64(static_cast<__int128>(a) - b));
      EXPECT_EQ(saturatingMul(a, b), clampToInt64(static_cast<__int128>(a) * b));
    }
  }
}

TEST(Saturating, ResultsPastEitherEndStopThere) {
  EXPECT_EQ(saturatingAdd(kMax, 1), kMax);
  EXPECT_EQ(saturatingAdd(kMin, -1), kMin);
  EXPECT_EQ(saturatingSub(kMin, 1), kMin);
  EXPECT_EQ(saturatingSub(0, kMin), kMax);
  EXPECT_EQ(saturatingMul(kMin, -1), kMax);
  EXPECT_EQ(saturatingMul(kMax, -2), kMin);
  EXPECT_EQ(saturatingMul(kMin, kMin), kMax);
}

}  // namespace
}  // namespace proflow
