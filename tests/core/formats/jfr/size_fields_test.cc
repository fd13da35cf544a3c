// Size fields that lie: an event, metadata or checkpoint whose declared size is smaller than its own size
// and type fields (or runs past the chunk) must end in a clear error naming the size, never in a read
// past the buffer. Each bad recording is a valid hand-built chunk with one size field rewritten.
#include <gtest/gtest.h>

#include <sstream>

#include "core/formats/jfr/byte_reader.h"
#include "core/formats/jfr/chunk.h"
#include "tests/support/jfr_request.h"
#include "tests/core/formats/jfr/jfr_writer.h"

namespace proflow::jfr {
namespace {

using testing::ChunkBuilder;
using testing::JfrBytes;
namespace ids = testing::ids;

constexpr size_t kCheckpointOffsetField = 16;
constexpr size_t kMetadataOffsetField = 24;

// One execution sample with a one-frame stack, its pools in one checkpoint written last (as the JDK does).
std::string validChunk() {
  ChunkBuilder b;
  b.addStandardClasses();
  b.event(ids::kExecutionSample,
          JfrBytes().varint(1001).varint(0).varint(1).varint(0).varint(0).varint(0).nullString().varint(0).varint(0));
  JfrBytes st;
  st.u8(0).varint(1).varint(1).varint(3).varint(0).varint(0);
  b.checkpoint({{ids::kSymbol, {{1, JfrBytes().utf8("C").str()}, {2, JfrBytes().utf8("run").str()}}},
                {ids::kFrameType, {{0, JfrBytes().utf8("Interpreted").str()}}},
                {ids::kClass, {{1, JfrBytes().varint(0).varint(1).varint(0).varint(0).str()}}},
                {ids::kMethod, {{1, JfrBytes().varint(1).varint(2).varint(0).varint(0).u8(0).str()}}},
                {ids::kStackTrace, {{1, st.str()}}}});
  return b.build();
}

uint64_t headerField(const std::string& chunk, size_t at) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(chunk[at + i]);
  return v;
}

// Rewrites the size varint of the event at `off` with `size`, keeping its encoded length (the JDK pads
// sizes), so every other offset of the chunk stays valid.
std::string withEventSize(std::string chunk, uint64_t off, uint64_t size) {
  int len = 1;
  while (static_cast<uint8_t>(chunk[off + static_cast<size_t>(len) - 1]) & 0x80) ++len;
  std::string patched = JfrBytes().padded(size, len).str();
  chunk.replace(off, patched.size(), patched);
  return chunk;
}

ConvertResult convert(const std::string& bytes) {
  otlp::Request req;
  return convertToOtlp(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), {}, &req);
}

TEST(JfrSizeFieldsTest, TheUnmodifiedChunkConverts) {
  ConvertResult r = convert(validChunk());
  ASSERT_TRUE(r.ok) << r.error.toString();
  EXPECT_EQ(r.events, 1u);
}

struct BadSize {
  const char* what;
  size_t offset_field;  // header field holding the event's offset
  uint64_t size;
  const char* expected;  // in the error message
};

class JfrBadSizeTest : public ::testing::TestWithParam<BadSize> {};

TEST_P(JfrBadSizeTest, IsRefusedWithTheSizeInTheError) {
  const BadSize& c = GetParam();
  const std::string good = validChunk();
  const uint64_t off = headerField(good, c.offset_field);
  const std::string bad = withEventSize(good, off, c.size);
  ConvertResult r = convert(bad);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.offset, off);
  EXPECT_NE(r.error.message.find(c.expected), std::string::npos) << r.error.toString();
  EXPECT_NE(r.error.message.find("event size " + std::to_string(c.size) + " "), std::string::npos)
      << r.error.toString();
  // The streaming reader takes the same path.
  std::istringstream in(bad);
  otlp::Request req;
  ConvertResult s = convertToOtlp(in, {}, &req);
  EXPECT_FALSE(s.ok);
  EXPECT_EQ(s.error.message, r.error.message);
}

INSTANTIATE_TEST_SUITE_P(
    Jfr, JfrBadSizeTest,
    ::testing::Values(BadSize{"checkpoint_size_1", kCheckpointOffsetField, 1, "bad checkpoint event"},
                      BadSize{"checkpoint_size_0", kCheckpointOffsetField, 0, "bad checkpoint event"},
                      BadSize{"checkpoint_past_chunk_end", kCheckpointOffsetField, 1u << 20, "bad checkpoint event"},
                      BadSize{"metadata_size_1", kMetadataOffsetField, 1, "bad metadata event"},
                      BadSize{"metadata_size_3", kMetadataOffsetField, 3, "bad metadata event"}),
    [](const auto& info) { return std::string(info.param.what); });

TEST(JfrSizeFieldsTest, AStackDeeperThanTheLimitEndsTheChunkWithAnErrorNamingIt) {
  const std::string chunk = validChunk();  // one frame
  ConvertOptions options;
  options.limits.max_stack_depth = 1;
  otlp::Request req;
  const auto bytes = std::span(reinterpret_cast<const uint8_t*>(chunk.data()), chunk.size());
  EXPECT_TRUE(convertToOtlp(bytes, options, &req).ok);
  options.limits.max_stack_depth = 0;
  ConvertResult r = convertToOtlp(bytes, options, &req);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.message.find("stack trace of 1 frames exceeds max_stack_depth 0"), std::string::npos)
      << r.error.toString();
}

TEST(JfrByteReaderTest, AWindowThatStartsPastItsEndIsEmptyAndFailed) {
  const uint8_t bytes[16] = {0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81};
  ByteReader r(bytes, bytes + 5, bytes + 1);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.remaining(), 0u);
  EXPECT_EQ(r.varint(), 0u);
  EXPECT_FALSE(r.skip(1));
}

// A value that runs past the end of a window ending where the file does: the error names the last byte
// of the file, never an offset outside it.
TEST(JfrByteReaderTest, ReadingPastTheEndNamesTheLastByteOfTheWindow) {
  const uint8_t bytes[4] = {0x01, 0x02, 0x81, 0x81};  // two one-byte varints, then one that never ends
  ByteReader r(bytes, bytes, bytes + 4);
  EXPECT_EQ(r.varint(), 1u);
  EXPECT_EQ(r.varint(), 2u);
  r.varint();
  EXPECT_FALSE(r.ok());
  EXPECT_LT(r.failOffset(), 4u);
  ByteReader at_end(bytes, bytes + 4, bytes + 4);  // nothing left at all
  at_end.u8();
  EXPECT_FALSE(at_end.ok());
  EXPECT_EQ(at_end.failOffset(), 3u);
}

}  // namespace
}  // namespace proflow::jfr
