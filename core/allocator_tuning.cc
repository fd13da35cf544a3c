#include "core/allocator_tuning.h"

#include <malloc.h>

#include <climits>

namespace proflow {

void tuneAllocatorForThroughput() {
#if defined(__GLIBC__)
  constexpr int kKeep = 4 << 20;
  mallopt(M_TRIM_THRESHOLD, kKeep);
  mallopt(M_MMAP_THRESHOLD, kKeep);
#endif
}

void tuneAllocatorForOneShot() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_MAX, 0);  // every buffer from the heap, whatever its size
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

}  // namespace proflow
