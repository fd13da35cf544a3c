// What tuneAllocatorForThroughput / tuneAllocatorForOneShot change for the whole process: large
// buffers from operator new are advised onto transparent huge pages (the "hg" flag of their mapping
// in /proc/self/smaps), small ones are not, and operator new keeps the standard's failure contract.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "core/runtime/allocator_tuning.h"
#include "tests/support/machine_permits.h"

namespace proflow {
namespace {

// The VmFlags of the mapping that holds `p` ("" when none is found).
std::string mappingFlags(const void* p) {
  const auto addr = reinterpret_cast<uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long begin = 0, end = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &begin, &end) == 2) {  // a mapping's first line
      inside = addr >= begin && addr < end;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

bool advisedHuge(const void* p) {
  std::istringstream words(mappingFlags(p));
  for (std::string w; words >> w;)
    if (w == "hg") return true;
  return false;
}

// Touches every page, so the buffer is in use as a column would be.
void fill(char* p, size_t n) {
  for (size_t i = 0; i < n; i += 4096) p[i] = static_cast<char>(i);
}

// Why this build cannot show the advice ("" when it can): a choice of the build, not of the machine.
std::string whyBuildHidesAdvice() {
#if defined(PROFLOW_SANITIZE)
  return "sanitizer builds keep the sanitizer's operator new, without the advice";
#endif
  return "";
}

// Why this kernel cannot show the advice ("" when it can).
std::string whyKernelHidesAdvice() {
  struct stat st;
  if (stat("/sys/kernel/mm/transparent_hugepage/enabled", &st) != 0)
    return "this kernel has no transparent huge pages: madvise(MADV_HUGEPAGE) cannot be observed";
  return "";
}

int handler_calls = 0;
void countingHandler() {
  ++handler_calls;
  std::set_new_handler(nullptr);  // the next failure throws
}

TEST(AllocatorTuning, LargeBuffersGetHugePageAdviceOnlyOnceTuned) {
  if (std::string why = whyBuildHidesAdvice(); !why.empty()) GTEST_SKIP() << why;
  PROFLOW_SKIP_IF_REFUSED(whyKernelHidesAdvice());
  constexpr size_t kLarge = 16 << 20, kSmall = 64 << 10;

  // Untuned, operator new is plain malloc.
  std::unique_ptr<char[]> before(new char[kLarge]);
  fill(before.get(), kLarge);
  EXPECT_FALSE(advisedHuge(before.get() + kLarge / 2)) << mappingFlags(before.get() + kLarge / 2);

  tuneAllocatorForThroughput();
  std::unique_ptr<char[]> large(new char[kLarge]);
  fill(large.get(), kLarge);
  EXPECT_TRUE(advisedHuge(large.get() + kLarge / 2)) << mappingFlags(large.get() + kLarge / 2);
  std::unique_ptr<char[]> small(new char[kSmall]);
  fill(small.get(), kSmall);
  EXPECT_FALSE(advisedHuge(small.get())) << mappingFlags(small.get());
  // A vector's storage comes through the same operator new.
  std::vector<uint32_t> column;
  column.reserve(kLarge / sizeof(uint32_t));
  column.assign(kLarge / sizeof(uint32_t), 7);
  EXPECT_TRUE(advisedHuge(column.data() + column.size() / 2));
}

TEST(AllocatorTuning, GlibcsHugetlbZeroTurnsTheAdviceOff) {
  if (std::string why = whyBuildHidesAdvice(); !why.empty()) GTEST_SKIP() << why;
  PROFLOW_SKIP_IF_REFUSED(whyKernelHidesAdvice());
  constexpr size_t kLarge = 16 << 20;
  ASSERT_EQ(setenv("GLIBC_TUNABLES", "glibc.malloc.check=0:glibc.malloc.hugetlb=0", 1), 0);
  tuneAllocatorForOneShot();
  std::unique_ptr<char[]> refused(new char[kLarge]);
  fill(refused.get(), kLarge);
  EXPECT_FALSE(advisedHuge(refused.get() + kLarge / 2)) << mappingFlags(refused.get() + kLarge / 2);

  ASSERT_EQ(unsetenv("GLIBC_TUNABLES"), 0);
  tuneAllocatorForOneShot();
  std::unique_ptr<char[]> advised(new char[kLarge]);
  fill(advised.get(), kLarge);
  EXPECT_TRUE(advisedHuge(advised.get() + kLarge / 2)) << mappingFlags(advised.get() + kLarge / 2);
}

TEST(AllocatorTuning, OperatorNewCallsTheNewHandlerThenThrowsBadAlloc) {
  // ASan's operator new aborts on an impossible size instead of calling the handler.
  if (std::string why = whyBuildHidesAdvice(); !why.empty()) GTEST_SKIP() << why;
  tuneAllocatorForThroughput();
  const size_t impossible = size_t{1} << 62;
  handler_calls = 0;
  std::set_new_handler(countingHandler);
  EXPECT_THROW(static_cast<void>(::operator new(impossible)), std::bad_alloc);
  EXPECT_EQ(handler_calls, 1);
  std::set_new_handler(nullptr);
  EXPECT_THROW(static_cast<void>(::operator new(impossible)), std::bad_alloc);
  EXPECT_EQ(handler_calls, 1);
  // Zero bytes is a valid, distinct allocation.
  void* a = ::operator new(0);
  void* b = ::operator new(0);
  EXPECT_NE(a, nullptr);
  EXPECT_NE(a, b);
  ::operator delete(a);
  ::operator delete(b);
}

}  // namespace
}  // namespace proflow
