// The arena addresses its bytes with 32-bit offsets: adding bytes that would pass 4 GiB is refused
// (std::length_error) instead of handing out offsets that wrap onto other data.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <stdexcept>

#include "core/flat/flat_batch.h"

namespace proflow::flat {
namespace {

TEST(ArenaOffsets, BytesThatWouldPassFourGiBAreRefusedAndTheArenaIsUnchanged) {
  // 4 GiB of readable address space that costs no memory (never written, and never read either:
  // the length is checked before anything is copied).
  const size_t size = size_t{UINT32_MAX} + 1;
  void* region = mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(region, MAP_FAILED);
  const std::string_view huge(static_cast<const char*>(region), size);

  Batch b;
  const Bytes first = b.addBytes("abc");
  EXPECT_THROW(b.addBytes(huge.substr(0, UINT32_MAX - 2)), std::length_error);  // 3 + (4 GiB - 3) > 4 GiB - 1
  EXPECT_THROW(b.addBytes(huge), std::length_error);
  EXPECT_EQ(b.arena.size(), 3u);
  EXPECT_EQ(b.view(first), "abc");
  const Bytes next = b.addBytes("d");
  EXPECT_EQ(next.offset, 3u);
  EXPECT_EQ(b.view(next), "d");
  munmap(region, size);
}

}  // namespace
}  // namespace proflow::flat
