// Both sampling modes on this test process's own threads: a thread burning CPU gets samples whose
// periods add up to about the CPU it used, with stacks through its callers; idle threads get none.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/runtime/thread_name.h"
#include "receivers/self/perf_event_sampler.h"
#include "receivers/self/process_info.h"
#include "receivers/self/sample_slots.h"
#include "receivers/self/timer_sampler.h"

namespace proflow::receivers::self {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

std::atomic<uint64_t> g_sink{0};

__attribute__((noinline)) uint64_t spinFor(std::chrono::nanoseconds cpu) {
  timespec start, now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  uint64_t x = 1;
  do {
    for (int i = 0; i < 10000; ++i) x = x * 6364136223846793005ull + 1442695040888963407ull;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  } while ((now.tv_sec - start.tv_sec) * 1'000'000'000ll + (now.tv_nsec - start.tv_nsec) < cpu.count());
  return x;
}

__attribute__((noinline)) void burner(std::chrono::nanoseconds cpu) {
  g_sink += spinFor(cpu);
  asm volatile("" ::: "memory");
}

std::vector<ThreadId> ids() {
  std::vector<ThreadId> out;
  for (const ThreadInfo& t : listThreads()) out.push_back(t.id);
  return out;
}

struct Burn {
  int32_t tid = 0;
  std::chrono::nanoseconds used{0};
};

// Starts a thread that waits to be tracked, then burns `cpu` of CPU time; samples it meanwhile.
Burn sampleABurningThread(Sampler& sampler, std::chrono::nanoseconds cpu, SampleSet* out) {
  std::atomic<int32_t> tid{0};
  std::atomic<bool> go{false}, done{false};
  std::atomic<int64_t> used{0};
  std::thread t([&] {
    setThreadName("burner");
    tid = static_cast<int32_t>(syscall(SYS_gettid));
    while (!go) std::this_thread::sleep_for(1ms);
    timespec a, b;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    burner(cpu);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    used = (b.tv_sec - a.tv_sec) * 1'000'000'000ll + (b.tv_nsec - a.tv_nsec);
    done = true;
  });
  while (tid == 0) std::this_thread::sleep_for(1ms);
  sampler.track(ids());
  go = true;
  while (!done) sampler.collect(50ms, out);
  t.join();
  sampler.collect(100ms, out);  // what was written just before the end
  return {tid, std::chrono::nanoseconds(used.load())};
}

void expectBurnerSampled(const SampleSet& samples, const Burn& burn, uint32_t frequency) {
  int64_t period_sum = 0;
  size_t of_burner = 0, deep = 0;
  for (const auto& r : samples.records) {
    if (r.tid != burn.tid) continue;
    ++of_burner;
    period_sum += r.period_ns;
    deep += r.frames_size >= 3;
    EXPECT_GT(r.time_ns, 0u);
  }
  const double expected = static_cast<double>(burn.used.count()) * frequency / 1e9;
  // On a loaded machine expiries that find the previous signal still pending are merged into one
  // sample whose period counts them (si_overrun), so fewer samples arrive; their periods still add
  // up to the CPU time, which the check after the bounds asserts.
  EXPECT_GE(static_cast<double>(of_burner), expected * 0.2) << "samples of the burning thread";
  EXPECT_LE(static_cast<double>(of_burner), expected * 1.5 + 2);
  EXPECT_NEAR(static_cast<double>(period_sum), static_cast<double>(burn.used.count()), burn.used.count() * 0.5);
  // Stacks go through spinFor's callers (frame pointers), not just the leaf.
  EXPECT_GE(deep, of_burner * 8 / 10);
}

TEST(TimerSampler, SamplesABurningThreadByItsCpuTime) {
  std::unique_ptr<Sampler> sampler;
  ASSERT_TRUE(TimerSampler::open({.frequency = 200, .max_stack_depth = 64}, &sampler).isOk());
  EXPECT_EQ(sampler->mode(), "timer");
  SampleSet samples;
  const Burn burn = sampleABurningThread(*sampler, 500ms, &samples);
  EXPECT_GE(sampler->tracked(), 2u);
  expectBurnerSampled(samples, burn, 200);
}

TEST(TimerSampler, OnlyOneRunsPerProcessAndAnotherMayFollowIt) {
  std::unique_ptr<Sampler> first, second;
  ASSERT_TRUE(TimerSampler::open({}, &first).isOk());
  Status s = TimerSampler::open({}, &second);
  EXPECT_FALSE(s.isOk());
  EXPECT_THAT(s.message(), HasSubstr("already samples this process in timer mode"));
  first->track(ids());
  first.reset();  // deletes its timers; a later sampler takes over
  ASSERT_TRUE(TimerSampler::open({}, &second).isOk());
}

TEST(TimerSampler, SignalsArrivingAfterStopAreHarmless) {
  std::unique_ptr<Sampler> sampler;
  ASSERT_TRUE(TimerSampler::open({.frequency = 1000}, &sampler).isOk());
  sampler->track(ids());
  burner(50ms);
  sampler.reset();
  // A queued timer signal now finds no sampler; SIGPROF's default action would end the process.
  ASSERT_EQ(kill(getpid(), SIGPROF), 0);
  burner(20ms);
  SUCCEED();
}

TEST(PerfEventSampler, SamplesABurningThreadOrAutoFallsBackToTimer) {
  const Status probe = PerfEventSampler::probe({});
  std::unique_ptr<Sampler> sampler;
  std::string why;
  ASSERT_TRUE(openSampler("auto", {.frequency = 200, .max_stack_depth = 64}, &sampler, &why).isOk());
  if (!probe.isOk()) {
    // Where the kernel refuses perf events, auto says why and samples with timers; perf_event fails.
    EXPECT_EQ(sampler->mode(), "timer");
    EXPECT_THAT(why, HasSubstr("perf_event_open refused: E"));
    std::unique_ptr<Sampler> forced;
    sampler.reset();
    EXPECT_FALSE(openSampler("perf_event", {}, &forced, &why).isOk());
    return;
  }
  EXPECT_EQ(sampler->mode(), "perf_event");
  EXPECT_TRUE(why.empty());
  SampleSet samples;
  const Burn burn = sampleABurningThread(*sampler, 500ms, &samples);
  expectBurnerSampled(samples, burn, 200);
  EXPECT_EQ(samples.lost, 0u);
}

TEST(Sampler, ThreadsThatStartAndExitAreTrackedAndDropped) {
  std::unique_ptr<Sampler> sampler;
  ASSERT_TRUE(openSampler("auto", {}, &sampler, nullptr).isOk());
  const size_t before = [&] {
    sampler->track(ids());
    return sampler->tracked();
  }();
  std::atomic<bool> stop{false};
  std::thread extra([&] {
    while (!stop) std::this_thread::sleep_for(1ms);
  });
  std::this_thread::sleep_for(20ms);
  sampler->track(ids());
  EXPECT_EQ(sampler->tracked(), before + 1);
  stop = true;
  extra.join();
  sampler->track(ids());
  EXPECT_EQ(sampler->tracked(), before);
}

TEST(SampleSlots, ConcurrentWritersNeverTearASampleAndEveryOneIsCounted) {
  SampleSlots slots(64, 8);
  constexpr int kWriters = 4, kEach = 20000;
  std::atomic<int> running{kWriters};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w)
    writers.emplace_back([&, w] {
      for (int i = 0; i < kEach; ++i) {
        const int64_t slot = slots.claim();
        if (slot < 0) continue;
        uint64_t* f = slots.frames(static_cast<size_t>(slot));
        const size_t depth = 1 + static_cast<size_t>(i % 8);
        for (size_t k = 0; k < depth; ++k) f[k] = static_cast<uint64_t>(w) << 32 | static_cast<uint64_t>(i) << 4 | k;
        slots.publish(static_cast<size_t>(slot), w, static_cast<uint64_t>(i), i, depth);
      }
      --running;
    });
  SampleSet out;
  while (running > 0) slots.drain(&out);
  for (auto& t : writers) t.join();
  slots.drain(&out);
  EXPECT_EQ(out.records.size() + out.lost, static_cast<size_t>(kWriters * kEach));
  EXPECT_GT(out.records.size(), 0u);
  for (const auto& r : out.records) {
    ASSERT_EQ(r.frames_size, 1 + r.time_ns % 8);
    const auto stack = out.stack(r);
    for (size_t k = 0; k < stack.size(); ++k)
      ASSERT_EQ(stack[k], static_cast<uint64_t>(r.tid) << 32 | r.time_ns << 4 | k);
  }
}

}  // namespace
}  // namespace proflow::receivers::self
