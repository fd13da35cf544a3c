// Protobuf arena options for requests holding a converted recording. The conversion writes about one
// byte of per-event arrays (values, timestamps) per input byte, all into fresh memory: with 4 KiB pages
// every page costs a fault (28 MB written to fresh 4 KiB pages took ~25 ms on the benchmark machine,
// ~5 ms with 2 MiB pages). Blocks of 2 MiB and more are therefore 2 MiB aligned and advised
// MADV_HUGEPAGE (transparent huge pages in "madvise" mode); smaller blocks stay on the heap, so a small
// request does not pay for a huge page.
#pragma once

#include <google/protobuf/arena.h>

#include <cstddef>

namespace proflow::jfr {

google::protobuf::ArenaOptions hugePageArenaOptions();

// The block allocator behind those options: `size` below 2 MiB comes from operator new, larger blocks are
// mmap'ed (2 MiB aligned, MADV_HUGEPAGE). freeLargeBlock needs the size given to allocLargeBlock.
void* allocLargeBlock(size_t size);
void freeLargeBlock(void* p, size_t size);

}  // namespace proflow::jfr
