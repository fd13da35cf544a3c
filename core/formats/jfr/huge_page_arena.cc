#include "core/formats/jfr/huge_page_arena.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace proflow::jfr {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;

size_t roundUp(size_t n) { return (n + kHugePage - 1) & ~(kHugePage - 1); }

// mmap gives 4 KiB alignment: map one huge page more and unmap the unaligned head and tail.
void* mapAligned(size_t len) {
  void* p = mmap(nullptr, len + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  auto start = reinterpret_cast<uintptr_t>(p);
  uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > start) munmap(p, aligned - start);
  uintptr_t tail = start + len + kHugePage - (aligned + len);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + len), tail);
  return reinterpret_cast<void*>(aligned);
}

}  // namespace

void* allocLargeBlock(size_t size) {
  if (size < kHugePage) return ::operator new(size);
  void* p = mapAligned(roundUp(size));
  // Advice only: without THP the block is ordinary memory.
  madvise(p, roundUp(size), MADV_HUGEPAGE);
  return p;
}

// The arena passes back the size it asked for, so the mapping's length is known again.
void freeLargeBlock(void* p, size_t size) {
  if (size < kHugePage) {
    ::operator delete(p);
    return;
  }
  munmap(p, roundUp(size));
}

google::protobuf::ArenaOptions hugePageArenaOptions() {
  google::protobuf::ArenaOptions o;
  // Blocks double from 4 KiB: a small request stays in small heap blocks, a large one reaches huge-page
  // blocks after a few hundred KiB, and no block exceeds 32 MiB (larger single arrays get a block of
  // their own size from the arena).
  o.start_block_size = 4096;
  o.max_block_size = size_t{32} << 20;
  o.block_alloc = allocLargeBlock;
  o.block_dealloc = freeLargeBlock;
  return o;
}

}  // namespace proflow::jfr
