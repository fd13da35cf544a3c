#include "tests/support/heap_peak/heap_peak.h"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace proflow::testing {
namespace {

std::atomic<size_t> in_use{0};
std::atomic<size_t> peak{0};

void* track(void* p) {
  if (!p) throw std::bad_alloc();
  const size_t now = in_use.fetch_add(malloc_usable_size(p), std::memory_order_relaxed) + malloc_usable_size(p);
  size_t seen = peak.load(std::memory_order_relaxed);
  while (now > seen && !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
  }
  return p;
}

}  // namespace

size_t heapInUse() { return in_use.load(); }
size_t heapPeak() { return peak.load(); }
void resetHeapPeak() { peak.store(in_use.load()); }

}  // namespace proflow::testing

// Every unaligned form goes through these two. libstdc++ forwards the others to them itself, but a
// sanitizer's runtime replaces each form on its own, so they are all defined here.
void* operator new(std::size_t n) { return proflow::testing::track(std::malloc(n == 0 ? 1 : n)); }
void operator delete(void* p) noexcept {
  if (!p) return;
  proflow::testing::in_use.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
  std::free(p);
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return operator new(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& tag) noexcept { return operator new(n, tag); }
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete[](void* p, std::size_t) noexcept { operator delete(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { operator delete(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { operator delete(p); }
