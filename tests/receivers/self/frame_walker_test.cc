// The timer mode's frame-pointer walk: it follows well-formed chains and stops, without reading,
// at every frame pointer outside [stack pointer, stack end), misaligned or not moving toward the
// stack's base; and it walks this test's own stack through real frames.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "receivers/self/frame_walker.h"
#include "receivers/self/process_info.h"

namespace proflow::receivers::self {
namespace {

// One readable page followed by a PROT_NONE guard page: a read past the stack end would crash.
class FakeStack : public ::testing::Test {
 protected:
  void SetUp() override {
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    void* p = mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
    ASSERT_EQ(mprotect(static_cast<char*>(p) + page_, page_, PROT_NONE), 0);
    words_ = static_cast<uint64_t*>(p);
  }
  void TearDown() override { munmap(words_, 2 * page_); }

  uint64_t at(size_t word) const { return reinterpret_cast<uint64_t>(words_ + word); }
  uint64_t lo() const { return at(0); }
  uint64_t hi() const { return at(0) + page_; }
  // A frame at word `w`: [next frame pointer][return address].
  void frame(size_t w, uint64_t next, uint64_t ret) {
    words_[w] = next;
    words_[w + 1] = ret;
  }
  std::vector<uint64_t> walk(uint64_t fp, uint64_t sp, size_t max = 64) {
    std::vector<uint64_t> out(max);
    out.resize(walkFramePointers(0x1000, fp, sp, hi(), out.data(), max));
    return out;
  }

  size_t page_ = 0;
  uint64_t* words_ = nullptr;
};

TEST_F(FakeStack, FollowsTheChainUntilAZeroReturnAddress) {
  frame(4, at(10), 0x2001);
  frame(10, at(20), 0x3001);
  frame(20, at(30), 0x4001);
  frame(30, 0, 0);
  EXPECT_EQ(walk(at(4), lo()), (std::vector<uint64_t>{0x1000, 0x2001, 0x3001, 0x4001}));
}

TEST_F(FakeStack, KeepsAtMostMaxFrames) {
  frame(4, at(10), 0x2001);
  frame(10, at(20), 0x3001);
  frame(20, 0, 0);
  EXPECT_EQ(walk(at(4), lo(), 2), (std::vector<uint64_t>{0x1000, 0x2001}));
  EXPECT_EQ(walk(at(4), lo(), 1), (std::vector<uint64_t>{0x1000}));
  EXPECT_TRUE(walk(at(4), lo(), 0).empty());
}

TEST_F(FakeStack, AFramePointerBelowTheStackPointerIsNotRead) {
  frame(4, at(10), 0x2001);
  EXPECT_EQ(walk(at(4), at(6)), (std::vector<uint64_t>{0x1000}));
}

TEST_F(FakeStack, AMisalignedFramePointerIsNotRead) {
  frame(4, at(10) + 4, 0x2001);
  EXPECT_EQ(walk(at(4) + 4, lo()), (std::vector<uint64_t>{0x1000}));
  EXPECT_EQ(walk(at(4), lo()), (std::vector<uint64_t>{0x1000, 0x2001}));
}

TEST_F(FakeStack, AChainThatLoopsOrGoesBackStops) {
  frame(10, at(20), 0x2001);
  frame(20, at(10), 0x3001);  // back to a frame already read
  EXPECT_EQ(walk(at(10), lo()), (std::vector<uint64_t>{0x1000, 0x2001, 0x3001}));
  frame(30, at(30), 0x5001);  // itself
  EXPECT_EQ(walk(at(30), lo()), (std::vector<uint64_t>{0x1000, 0x5001}));
}

TEST_F(FakeStack, NothingPastTheStackEndIsRead) {
  // The next frame would be in the guard page: reading it would fault.
  const size_t last = page_ / 8 - 2;
  frame(last, hi(), 0x2001);
  EXPECT_EQ(walk(at(last), lo()), (std::vector<uint64_t>{0x1000, 0x2001}));
  // A frame whose return address would be the first word past the end.
  frame(4, hi() - 8, 0x3001);
  EXPECT_EQ(walk(at(4), lo()), (std::vector<uint64_t>{0x1000, 0x3001}));
  // Far outside, in either direction.
  frame(4, 8, 0x3001);
  EXPECT_EQ(walk(at(4), lo()), (std::vector<uint64_t>{0x1000, 0x3001}));
  EXPECT_EQ(walk(UINT64_MAX - 7, lo()), (std::vector<uint64_t>{0x1000}));
}

TEST(FindRange, FindsTheRangeHoldingAnAddressOrNone) {
  const std::vector<MemoryRange> r = {{0x1000, 0x2000}, {0x3000, 0x5000}, {0x5000, 0x6000}};
  EXPECT_EQ(findRange(r.data(), r.size(), 0x0fff), nullptr);
  EXPECT_EQ(findRange(r.data(), r.size(), 0x1000), &r[0]);
  EXPECT_EQ(findRange(r.data(), r.size(), 0x1fff), &r[0]);
  EXPECT_EQ(findRange(r.data(), r.size(), 0x2000), nullptr);
  EXPECT_EQ(findRange(r.data(), r.size(), 0x4000), &r[1]);
  EXPECT_EQ(findRange(r.data(), r.size(), 0x5000), &r[2]);
  EXPECT_EQ(findRange(r.data(), r.size(), 0x6000), nullptr);
  EXPECT_EQ(findRange(r.data(), 0, 0x1000), nullptr);
}

// Real frames: this executable is built with frame pointers.
__attribute__((noinline)) size_t walkHere(std::vector<uint64_t>* out) {
  pthread_attr_t attr;
  void* base = nullptr;
  size_t size = 0;
  pthread_getattr_np(pthread_self(), &attr);
  pthread_attr_getstack(&attr, &base, &size);
  pthread_attr_destroy(&attr);
  out->resize(64);
  volatile uint64_t marker = 0;
  const uint64_t sp = reinterpret_cast<uint64_t>(&marker) & ~uint64_t{15};
  const size_t n = walkFramePointers(reinterpret_cast<uint64_t>(&walkHere),
                                     reinterpret_cast<uint64_t>(__builtin_frame_address(0)), sp,
                                     reinterpret_cast<uint64_t>(base) + size, out->data(), out->size());
  out->resize(n);
  return n;
}
// The empty asm after each call keeps the calls out of tail position (a jump would leave no frame).
__attribute__((noinline)) size_t middle(std::vector<uint64_t>* out) {
  const size_t n = walkHere(out);
  asm volatile("" ::: "memory");
  return n;
}
__attribute__((noinline)) size_t outer(std::vector<uint64_t>* out) {
  const size_t n = middle(out);
  asm volatile("" ::: "memory");
  return n;
}

TEST(WalkFramePointers, WalksThisThreadsStackThroughItsCallers) {
  std::vector<uint64_t> frames;
  ASSERT_GE(outer(&frames), 4u);
  // The return addresses into middle() and outer() are in this executable's code.
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  ASSERT_GT(n, 0);
  const std::string path(exe, static_cast<size_t>(n));
  int in_exe = 0;
  for (const MapEntry& m : readMaps())
    if (m.exec && m.path == path)
      for (size_t i = 1; i < 3; ++i) in_exe += frames[i] >= m.start && frames[i] < m.limit;
  EXPECT_EQ(in_exe, 2);
  EXPECT_GT(frames[1], reinterpret_cast<uint64_t>(&middle));
  EXPECT_GT(frames[2], reinterpret_cast<uint64_t>(&outer));
}

}  // namespace
}  // namespace proflow::receivers::self
