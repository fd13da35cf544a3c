// Sharing a batch read-only, copying it for a mutating consumer, and its byte sizes.
#include <gtest/gtest.h>

#include <memory>

#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "tests/core/flat/test_requests.h"

namespace proflow::flat {
namespace {

TEST(FlatSharing, APrivateCopyIsIsolatedFromTheSharedBatch) {
  const std::string wire = testing::agentRequest(2, 50, 7).SerializeAsString();
  auto decoded = std::make_shared<Batch>();
  ASSERT_TRUE(decode(wire, decoded.get()).request.isOk());
  std::shared_ptr<const Batch> shared = decoded;
  std::shared_ptr<const Batch> reader = shared;  // fan-out to a read-only consumer: no copy
  EXPECT_EQ(reader.get(), shared.get());

  Batch mine = *shared;  // a mutating consumer's copy
  mine.values[0] = 12345;
  mine.strings[1] = mine.addBytes("renamed");
  mine.resources.clear();
  EXPECT_EQ(encode(*shared), wire);
  EXPECT_NE(encode(mine), wire);
  EXPECT_NE(shared->values[0], 12345);
}

TEST(FlatSizes, EncodedSizeIsExactAndMemoryFollowsTheContent) {
  for (const auto& [name, request] : testing::corpus()) {
    SCOPED_TRACE(name);
    Batch b;
    ASSERT_TRUE(decode(request.SerializeAsString(), &b).request.isOk());
    EXPECT_EQ(encodedSize(b), request.ByteSizeLong());
    EXPECT_EQ(encodedSize(b), encode(b).size());
    const size_t before = b.memoryBytes();
    EXPECT_GE(before, sizeof(Batch) + b.arena.size() + b.samples.size() * 2 * sizeof(int32_t));
    b.shrinkToFit();
    EXPECT_LE(b.memoryBytes(), before);
    EXPECT_EQ(encode(b), request.SerializeAsString());  // shrinking keeps the content
  }
  Batch empty;
  EXPECT_EQ(empty.memoryBytes(), sizeof(Batch));
  EXPECT_EQ(encodedSize(empty), 0u);
}

TEST(FlatSizes, MemoryGrowsWithWhatIsAdded) {
  Batch b;
  const size_t before = b.memoryBytes();
  b.addBytes(std::string(1000, 'x'));
  b.values.resize(100);
  EXPECT_GE(b.memoryBytes(), before + 1000 + 100 * sizeof(int64_t));
}

}  // namespace
}  // namespace proflow::flat
