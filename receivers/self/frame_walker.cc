#include "receivers/self/frame_walker.h"

namespace proflow::receivers::self {

const MemoryRange* findRange(const MemoryRange* ranges, size_t count, uint64_t address) noexcept {
  size_t lo = 0, hi = count;  // first range with lo > address, by bisection
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (ranges[mid].lo <= address)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0) return nullptr;
  const MemoryRange* r = &ranges[lo - 1];
  return address < r->hi ? r : nullptr;
}

size_t walkFramePointers(uint64_t pc, uint64_t fp, uint64_t sp, uint64_t stack_hi, uint64_t* out,
                         size_t max) noexcept {
  if (max == 0) return 0;
  size_t n = 0;
  out[n++] = pc;
  uint64_t lowest = sp;
  while (n < max) {
    if (fp % 8 != 0 || fp < lowest || stack_hi < 16 || fp > stack_hi - 16) break;
    const auto* frame = reinterpret_cast<const uint64_t*>(fp);
    const uint64_t next = frame[0], ret = frame[1];
    if (ret == 0) break;
    out[n++] = ret;
    lowest = fp + 16;
    fp = next;
  }
  return n;
}

}  // namespace proflow::receivers::self
