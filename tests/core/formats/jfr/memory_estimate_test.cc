// The JFR conversion into a flat batch (the receivers' path) claims, through ConvertOptions::reserve_memory, at least what it allocates: the
// heap's peak during conversion (every operator new counted, arena blocks included) stays under the
// largest claim, on recordings shaped to amplify and on ordinary ones; and a refused claim stops the
// conversion before the output grows past it.
#include <gtest/gtest.h>

#include <google/protobuf/arena.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/formats/jfr/memory_estimate.h"
#include "core/formats/jfr/flat_converter.h"
#include "tests/core/formats/jfr/amplifying.h"
#include "tests/support/heap_peak/heap_peak.h"

namespace proflow::jfr {
namespace {

std::span<const uint8_t> bytesOf(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

struct Measured {
  ConvertResult result;
  size_t peak = 0;     // heap above the baseline while converting (request on an arena, as receivers do)
  size_t claimed = 0;  // largest total asked of reserve_memory
};

Measured convertMeasured(const std::string& jfr, size_t refuse_above = SIZE_MAX) {
  Measured m;
  ConvertOptions o;
  o.reserve_memory = [&](size_t total) {
    if (total > refuse_above) return Status::exhausted("over the test budget");
    m.claimed = std::max(m.claimed, total);
    return Status::ok();
  };
  const size_t base = testing::heapInUse();
  testing::resetHeapPeak();
  {
    flat::Batch out;  // what the receivers convert into
    m.result = convertToFlat(bytesOf(jfr), o, &out);
    m.peak = testing::heapPeak() - base;
  }
  return m;
}

void expectBounded(const std::string& name, const std::string& jfr) {
  Measured m = convertMeasured(jfr);
  ASSERT_TRUE(m.result.ok) << name << ": " << m.result.error.toString();
  EXPECT_GT(m.result.samples, 0u) << name;
  EXPECT_LE(m.peak, m.claimed) << name << ": allocated " << m.peak << " bytes, claimed " << m.claimed
                               << " (input " << jfr.size() << ")";
  std::printf("%s: input %zu bytes, peak heap %zu, claimed %zu\n", name.c_str(), jfr.size(), m.peak, m.claimed);
}

TEST(JfrMemoryEstimate, ScanCountsChunksEventsAndPools) {
  const std::string one = testing::jfrDistinctSpans(100);
  JfrShape s = scanShape(bytesOf(one));
  EXPECT_EQ(s.bytes, one.size());
  EXPECT_EQ(s.chunks, 1u);
  // 100 samples, the metadata event and two checkpoints.
  EXPECT_EQ(s.events, 103u);
  EXPECT_GT(s.max_pool_bytes, 0u);
  EXPECT_GT(s.max_metadata_bytes, 0u);
  JfrShape two = scanShape(bytesOf(one + one));
  EXPECT_EQ(two.chunks, 2u);
  EXPECT_EQ(two.events, 206u);
  EXPECT_EQ(two.max_pool_bytes, s.max_pool_bytes) << "pools are chunk-scoped: the largest chunk counts";
  // A damaged tail ends the walk, keeping what was counted.
  JfrShape cut = scanShape(bytesOf(one + one.substr(0, 100)));
  EXPECT_EQ(cut.chunks, 1u);
}

TEST(JfrMemoryEstimate, ClaimCoversDeepDistinctStacks) {
  expectBounded("2000 stacks x 100 frames", testing::jfrDistinctDeepStacks(2000, 100));
  expectBounded("20 stacks x 8000 frames", testing::jfrDistinctDeepStacks(20, 8000));
}

TEST(JfrMemoryEstimate, ClaimCoversOneSamplePerEvent) {
  expectBounded("200k distinct spans", testing::jfrDistinctSpans(200000));
}

TEST(JfrMemoryEstimate, ClaimCoversFixtureRecordings) {
  for (const char* name : {"async_v0.jfr", "async_v1.jfr", "two_chunks.jfr", "minimal.jfr"}) {
    std::ifstream in(std::string(PROFLOW_SOURCE_DIR) + "/tests/fuzz/corpus/jfr/" + name, std::ios::binary);
    const std::string jfr((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(jfr.empty()) << name;
    expectBounded(name, jfr);
  }
}

TEST(JfrMemoryEstimate, RefusedClaimStopsTheConversion) {
  const std::string jfr = testing::jfrDistinctDeepStacks(2000, 100);
  const size_t full = convertMeasured(jfr).peak;
  const size_t budget = full / 4;
  Measured m = convertMeasured(jfr, budget);
  EXPECT_FALSE(m.result.ok);
  EXPECT_EQ(m.result.refused.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(m.result.error.message, "over the test budget");
  EXPECT_LE(m.peak, budget) << "the refused conversion allocated past the budget";
  // Refused before any chunk is read when the recording's shape alone is over the budget.
  Measured early = convertMeasured(jfr, jfr.size());
  EXPECT_FALSE(early.result.ok);
  EXPECT_EQ(early.result.chunks, 0u);
}

}  // namespace
}  // namespace proflow::jfr
