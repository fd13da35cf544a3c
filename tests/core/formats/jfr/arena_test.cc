// Conversion onto a protobuf arena (as the daemon's batches do) and the huge-page block allocator.
#include <gtest/gtest.h>

#include <google/protobuf/arena.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/formats/jfr/huge_page_arena.h"
#include "core/formats/jfr/otlp_converter.h"
#include "tests/core/formats/jfr/recordings.h"

namespace proflow::jfr {
namespace {

TEST(JfrHugePageArenaTest, BlocksOfEverySizeAreUsableAndLargeOnesAligned) {
  for (size_t size : {size_t{16}, size_t{4096}, (size_t{2} << 20) - 1, size_t{2} << 20, (size_t{5} << 20) + 3}) {
    auto* p = static_cast<uint8_t*>(allocLargeBlock(size));
    ASSERT_NE(p, nullptr);
    if (size >= (size_t{2} << 20)) EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % (size_t{2} << 20), 0u) << size;
    std::memset(p, 0xAB, size);
    EXPECT_EQ(p[size - 1], 0xAB);
    freeLargeBlock(p, size);
  }
}

// Enough values to make the arena allocate blocks past 2 MiB (the mmap'ed ones).
TEST(JfrHugePageArenaTest, ArenaHoldsLargeRepeatedFields) {
  google::protobuf::Arena arena(hugePageArenaOptions());
  auto* p = google::protobuf::Arena::CreateMessage<otlp::Profile>(&arena);
  for (int s = 0; s < 3; ++s) {
    otlp::Sample* sample = p->add_samples();
    for (int i = 0; i < 400'000; ++i) sample->add_timestamps_unix_nano(static_cast<uint64_t>(i) * 3 + s);
  }
  EXPECT_GT(arena.SpaceAllocated(), size_t{8} << 20);
  EXPECT_EQ(p->samples(2).timestamps_unix_nano(399'999), 399'999u * 3 + 2);
}

// The request on an arena (the receivers') serializes to the same bytes as on the heap.
TEST(JfrArenaConversionTest, ArenaAndHeapRequestsAreIdentical) {
  std::string dir = testing::jfrRecordingsDir();
  ASSERT_FALSE(dir.empty()) << "could not generate JFR recordings with the JDK";
  for (const char* name : {"contention", "two_chunks"}) {
    std::vector<uint8_t> in = testing::readBytes(dir + "/" + name + ".jfr");
    ASSERT_FALSE(in.empty()) << name;
    otlp::Request heap;
    ASSERT_TRUE(convertToOtlp(in, {}, &heap).ok);
    google::protobuf::Arena arena(hugePageArenaOptions());
    auto* on_arena = google::protobuf::Arena::CreateMessage<otlp::Request>(&arena);
    ASSERT_TRUE(convertToOtlp(in, {}, on_arena).ok);
    EXPECT_EQ(on_arena->resource_profiles(0).scope_profiles(0).profiles(0).GetArena(), &arena);
    EXPECT_EQ(on_arena->SerializeAsString(), heap.SerializeAsString()) << name;
  }
}

}  // namespace
}  // namespace proflow::jfr
