#include "core/allocator_tuning.h"

#include <malloc.h>

namespace proflow {

void tuneAllocatorForThroughput() {
#if defined(__GLIBC__)
  constexpr int kKeep = 4 << 20;
  mallopt(M_TRIM_THRESHOLD, kKeep);
  mallopt(M_MMAP_THRESHOLD, kKeep);
#endif
}

}  // namespace proflow
