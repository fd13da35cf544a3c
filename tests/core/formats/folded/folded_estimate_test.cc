// Folded text claims, through the reserve callback of foldedToFlat (the receivers' path), at least
// what parsing and conversion allocate: the heap's peak (every operator new counted, arena blocks included) stays under the
// largest claim, for distinct frames (the worst case) and for repeated ones; a refused claim stops
// before parsing.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/flat/flat_batch.h"
#include "core/formats/folded/folded.h"
#include "tests/core/formats/jfr/amplifying.h"
#include "tests/support/heap_peak/heap_peak.h"

namespace proflow::folded {
namespace {

struct Measured {
  Status status;
  size_t peak = 0;
  size_t claimed = 0;
};

Measured convertMeasured(const std::string& text, size_t refuse_above = SIZE_MAX) {
  Measured m;
  auto reserve = [&](size_t total) {
    if (total > refuse_above) return Status::exhausted("over the test budget");
    m.claimed = std::max(m.claimed, total);
    return Status::ok();
  };
  FoldedOptions options;
  options.limits.max_samples = 10'000'000;
  const size_t base = testing::heapInUse();
  testing::resetHeapPeak();
  flat::Batch out;
  m.status = foldedToFlat(text, options, pprof::PprofToOtlpOptions{}, 0, reserve, &out);
  m.peak = testing::heapPeak() - base;
  return m;
}

void expectBounded(const std::string& name, const std::string& text) {
  Measured m = convertMeasured(text);
  ASSERT_TRUE(m.status.isOk()) << name << ": " << m.status.toString();
  EXPECT_LE(m.peak, m.claimed) << name << ": allocated " << m.peak << " bytes, claimed " << m.claimed;
  std::printf("%s: input %zu bytes, peak heap %zu, claimed %zu\n", name.c_str(), text.size(), m.peak, m.claimed);
}

// An async-profiler-like file: long qualified names, a few hundred of them, deep stacks.
std::string repeatedFrames(int lines, int depth, int names) {
  std::string out;
  for (int l = 0; l < lines; ++l) {
    for (int d = 0; d < depth; ++d) {
      if (d) out += ';';
      out += "com.example.service.Handler.method" + std::to_string((l * 7 + d * 13) % names);
    }
    out += ' ' + std::to_string(l % 50 + 1) + '\n';
  }
  return out;
}

TEST(FoldedMemoryEstimate, ClaimCoversDistinctFrames) {
  expectBounded("5000 lines x 40 distinct frames", testing::foldedDistinctFrames(5000, 40));
  expectBounded("100000 lines x 1 distinct frame", testing::foldedDistinctFrames(100000, 1));
}

TEST(FoldedMemoryEstimate, ClaimCoversRepeatedFrames) {
  expectBounded("20000 lines x 30 of 300 names", repeatedFrames(20000, 30, 300));
  expectBounded("one line", "main;work 1\n");
}

TEST(FoldedMemoryEstimate, EstimateCountsLinesFramesAndDistinctNames) {
  const size_t distinct = estimateFoldedBytes(testing::foldedDistinctFrames(1000, 10));
  const std::string same = repeatedFrames(1000, 10, 5);
  EXPECT_GT(distinct, estimateFoldedBytes(same)) << "repeated names cost less than distinct ones";
  EXPECT_GT(estimateFoldedBytes(same + same), estimateFoldedBytes(same));
}

TEST(FoldedMemoryEstimate, RefusedClaimStopsBeforeParsing) {
  const std::string text = testing::foldedDistinctFrames(5000, 40);
  Measured m = convertMeasured(text, text.size() * 4);
  EXPECT_EQ(m.status.code(), StatusCode::kResourceExhausted);
  // Only the estimate's own table of name hashes (at most 8 MiB) was allocated: nothing was parsed.
  EXPECT_LE(m.peak, (size_t{8} << 20) + 4096);
}

}  // namespace
}  // namespace proflow::folded
