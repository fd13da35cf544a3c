#include "core/runtime/allocator_tuning.h"

#include <malloc.h>
#include <sys/mman.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string_view>

namespace proflow {
namespace {

// Buffers from this size on are advised onto transparent huge pages (0: none). Only set by the
// tuning calls below, so programs that never call them allocate as glibc alone would.
std::atomic<size_t> huge_pages_from{0};

constexpr uintptr_t kHugePage = uintptr_t{2} << 20;

// The whole 2 MiB pages inside [p, p + n) may be backed by huge pages. A profile's large columns
// are written front to back once: with 4 KiB pages that is a page fault (and a zeroed page) every
// 4 KiB, a third of the time of converting a 290k-sample profile on a VM; a huge page faults once
// per 2 MiB. Freed memory goes back with the buffer, as before. Without THP in "madvise" or
// "always" mode this changes nothing.
void adviseHugePages(void* p, size_t n) {
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + n) & ~(kHugePage - 1);
  if (begin < end) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

// glibc's own switch for huge pages in malloc, read the same way: hugetlb=0 turns the advice off.
bool hugePagesRefused() {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return tunables != nullptr && std::string_view(tunables).find("glibc.malloc.hugetlb=0") != std::string_view::npos;
}

void useHugePagesFrom(size_t bytes) {
#if defined(MADV_HUGEPAGE)
  huge_pages_from.store(hugePagesRefused() ? 0 : bytes, std::memory_order_relaxed);
#else
  (void)bytes;
#endif
}

}  // namespace

void tuneAllocatorForThroughput() {
#if defined(__GLIBC__)
  constexpr int kKeep = 4 << 20;
  mallopt(M_TRIM_THRESHOLD, kKeep);
  mallopt(M_MMAP_THRESHOLD, kKeep);
  useHugePagesFrom(kKeep);  // the mmapped ones: at least one whole huge page inside
#endif
}

void tuneAllocatorForOneShot() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_MAX, 0);  // every buffer from the heap, whatever its size
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
  useHugePagesFrom(4 << 20);
#endif
}

}  // namespace proflow

// The replaceable global allocation function, as the standard library's (malloc; on failure the
// new-handler, then std::bad_alloc), plus the huge page advice for large buffers. new[] and the
// nothrow forms call it; every operator delete stays free(). Sanitizer builds keep their own.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define PROFLOW_SANITIZER_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(PROFLOW_SANITIZE)
#define PROFLOW_SANITIZER_ALLOCATOR 1
#endif
#if !defined(PROFLOW_SANITIZER_ALLOCATOR)
void* operator new(std::size_t n) {
  if (n == 0) n = 1;
  while (true) {
    if (void* p = std::malloc(n)) {
      const size_t from = proflow::huge_pages_from.load(std::memory_order_relaxed);
      if (from != 0 && n >= from) proflow::adviseHugePages(p, n);
      return p;
    }
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}
#endif
