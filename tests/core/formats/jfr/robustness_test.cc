// Damaged JDK recordings: truncated, bit-flipped, unfinished chunks and bad event sizes must end in a clear
// error naming an offset, never a crash or hang, and events of complete chunks must be kept.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "core/formats/jfr/chunk_reader.h"
#include "tests/support/jfr_request.h"
#include "tests/core/formats/jfr/recordings.h"

namespace proflow::jfr {
namespace {

struct Inputs {
  std::vector<uint8_t> first;  // profile.jfr
  std::vector<uint8_t> both;   // profile.jfr + contention.jfr
};

const Inputs& inputs() {
  static const Inputs in = [] {
    Inputs i;
    std::string dir = testing::jfrRecordingsDir();
    if (!dir.empty()) {
      i.first = testing::readBytes(dir + "/profile.jfr");
      i.both = testing::readBytes(dir + "/two_chunks.jfr");
    }
    return i;
  }();
  return in;
}

ConvertResult convert(const std::vector<uint8_t>& bytes, otlp::Request* req = nullptr) {
  otlp::Request local;
  return convertToOtlp(bytes, {}, req ? req : &local);
}

class JfrRobustnessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(inputs().both.empty()) << "could not generate JFR recordings with the JDK";
    first_events_ = convert(inputs().first).events;
    ASSERT_GT(first_events_, 0u);
  }
  uint64_t first_events_ = 0;
};

TEST_F(JfrRobustnessTest, TruncatedFilesFailCleanlyAndKeepCompleteChunks) {
  const auto& both = inputs().both;
  const size_t boundary = inputs().first.size();
  std::vector<size_t> cuts = {0, 1, 67, 68, 69, boundary - 1, boundary + 1, boundary + 68, both.size() - 1};
  for (size_t c = 97; c < both.size(); c += both.size() / 61) cuts.push_back(c);
  for (size_t cut : cuts) {
    SCOPED_TRACE("cut at " + std::to_string(cut));
    std::vector<uint8_t> t(both.begin(), both.begin() + static_cast<std::ptrdiff_t>(cut));
    ConvertResult r = convert(t);
    EXPECT_FALSE(r.ok);
    EXPECT_FALSE(r.error.message.empty());
    EXPECT_LE(r.error.offset, cut);
    if (cut > boundary) {
      EXPECT_EQ(r.events, first_events_);  // the complete first chunk survives
    } else {
      EXPECT_EQ(r.events, 0u);
    }
    // The streaming reader agrees.
    std::istringstream in(std::string(t.begin(), t.end()));
    otlp::Request req;
    ConvertResult s = convertToOtlp(in, {}, &req);
    EXPECT_FALSE(s.ok);
    EXPECT_EQ(s.events, r.events);
  }
}

TEST_F(JfrRobustnessTest, CutAtTheChunkBoundaryIsAValidOneChunkFile) {
  const auto& both = inputs().both;
  std::vector<uint8_t> t(both.begin(), both.begin() + static_cast<std::ptrdiff_t>(inputs().first.size()));
  ConvertResult r = convert(t);
  EXPECT_TRUE(r.ok) << r.error.toString();
  EXPECT_EQ(r.events, first_events_);
}

TEST_F(JfrRobustnessTest, BitFlipsNeverCrashAndErrorsNameAnOffsetInsideTheFile) {
  const auto& both = inputs().both;
  std::mt19937_64 rng(42);
  int failures = 0;
  for (int i = 0; i < 400; ++i) {
    std::vector<uint8_t> t = both;
    size_t at = rng() % t.size();
    t[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
    ConvertResult r = convert(t);
    if (!r.ok) {
      ++failures;
      EXPECT_LT(r.error.offset, t.size());
      EXPECT_FALSE(r.error.message.empty());
    }
  }
  EXPECT_GT(failures, 0);  // some flips land in sizes, headers and pools and must be detected
}

TEST_F(JfrRobustnessTest, UnfinishedChunkWithZeroOffsetsIsRejected) {
  std::vector<uint8_t> t = inputs().both;
  const size_t second = inputs().first.size();
  for (int i = 16; i < 32; ++i) t[second + static_cast<size_t>(i)] = 0;  // cp and metadata offsets of chunk 2
  ConvertResult r = convert(t);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.offset, second + 16);
  EXPECT_NE(r.error.message.find("unfinished"), std::string::npos) << r.error.message;
  EXPECT_EQ(r.events, first_events_);
}

TEST_F(JfrRobustnessTest, HeaderBeingUpdatedIsRejected) {
  std::vector<uint8_t> t = inputs().first;
  t[64] = 255;
  ConvertResult r = convert(t);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.offset, 64u);
}

// Finds the first ordinary event after the header (not the metadata event) so its size can be damaged.
uint64_t firstEventOffset(const std::vector<uint8_t>& bytes) {
  Chunk c;
  EXPECT_TRUE(c.load(std::span(bytes.data(), bytes.size()), 0));
  return c.header().metadata_offset == kChunkHeaderSize ? 0 : kChunkHeaderSize;
}

TEST_F(JfrRobustnessTest, ZeroAndHugeEventSizesAreRejectedAtTheirOffset) {
  uint64_t at = firstEventOffset(inputs().first);
  ASSERT_EQ(at, kChunkHeaderSize);
  std::vector<uint8_t> zero = inputs().first;
  zero[at] = 0;
  ConvertResult r = convert(zero);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.offset, at);
  EXPECT_NE(r.error.message.find("size"), std::string::npos);

  std::vector<uint8_t> huge = inputs().first;
  const uint8_t big[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F};
  std::copy(std::begin(big), std::end(big), huge.begin() + static_cast<std::ptrdiff_t>(at));
  r = convert(huge);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.offset, at);
}

TEST_F(JfrRobustnessTest, ChunkSizeLimitStopsBeforeAllocating) {
  ConvertOptions o;
  o.limits.max_chunk_size = 4096;
  std::istringstream in(std::string(inputs().both.begin(), inputs().both.end()));
  otlp::Request req;
  ConvertResult r = convertToOtlp(in, o, &req);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.offset, 8u);
  EXPECT_NE(r.error.message.find("limit"), std::string::npos);
}

TEST_F(JfrRobustnessTest, StreamAndBufferGiveTheSameRequest) {
  otlp::Request a, b;
  ASSERT_TRUE(convert(inputs().both, &a).ok);
  std::istringstream in(std::string(inputs().both.begin(), inputs().both.end()));
  ASSERT_TRUE(convertToOtlp(in, {}, &b).ok);
  EXPECT_EQ(a.SerializeAsString(), b.SerializeAsString());
}

TEST(JfrRobustnessInputTest, EmptyAndNonJfrInputAreErrors) {
  ConvertResult r = convert({});
  EXPECT_FALSE(r.ok);
  std::vector<uint8_t> junk(200, 'x');
  r = convert(junk);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.offset, 0u);
  EXPECT_NE(r.error.message.find("magic"), std::string::npos);
}

}  // namespace
}  // namespace proflow::jfr
