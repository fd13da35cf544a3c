#include "receivers/self/timer_sampler.h"

#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

#include "receivers/self/frame_walker.h"
#include "receivers/self/process_info.h"
#include "receivers/self/sample_slots.h"

namespace proflow::receivers::self {

struct RangeTable {
  std::vector<MemoryRange> ranges;
};

struct TimerSampler::Shared {
  Shared(size_t slots, size_t depth, int64_t period) : slots(slots, depth), period_ns(period) {}
  SampleSlots slots;
  int64_t period_ns;
  std::atomic<const RangeTable*> ranges{nullptr};
  std::vector<std::unique_ptr<RangeTable>> tables;  // the sampler thread's: current and retired
};

namespace {

// The running sampler's state, and how many handlers are running: memory a handler may still
// read is freed only after the count was seen at zero once the pointer to it was replaced.
std::atomic<TimerSampler::Shared*> g_shared{nullptr};
std::atomic<int> g_in_handler{0};
std::once_flag g_handler_installed;

bool registers(const ucontext_t* uc, uint64_t* pc, uint64_t* fp, uint64_t* sp) {
#if defined(__x86_64__)
  *pc = static_cast<uint64_t>(uc->uc_mcontext.gregs[REG_RIP]);
  *fp = static_cast<uint64_t>(uc->uc_mcontext.gregs[REG_RBP]);
  *sp = static_cast<uint64_t>(uc->uc_mcontext.gregs[REG_RSP]);
  return true;
#elif defined(__aarch64__)
  *pc = uc->uc_mcontext.pc;
  *fp = uc->uc_mcontext.regs[29];
  *sp = uc->uc_mcontext.sp;
  return true;
#else
  (void)uc, (void)pc, (void)fp, (void)sp;
  return false;
#endif
}

void sampleHere(TimerSampler::Shared& s, const siginfo_t* info, const ucontext_t* uc) {
  uint64_t pc = 0, fp = 0, sp = 0;
  if (!registers(uc, &pc, &fp, &sp)) return;
  const int64_t slot = s.slots.claim();
  if (slot < 0) return;
  uint64_t* out = s.slots.frames(static_cast<size_t>(slot));
  const RangeTable* table = s.ranges.load();
  const MemoryRange* stack = table ? findRange(table->ranges.data(), table->ranges.size(), sp) : nullptr;
  size_t depth = 1;
  out[0] = pc;
  // A stack pointer outside every known range (a stack mapped after the last scan): the leaf only.
  if (stack) depth = walkFramePointers(pc, fp, sp, stack->hi, out, s.slots.maxDepth());
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  const uint64_t time = static_cast<uint64_t>(now.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(now.tv_nsec);
  // Expirations the signal could not be delivered for are folded into this sample's period.
  const int64_t period = s.period_ns * (1 + std::max(0, info->si_overrun));
  s.slots.publish(static_cast<size_t>(slot), info->si_value.sival_int, time, period, depth);
}

void onSigprof(int, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  g_in_handler.fetch_add(1);
  TimerSampler::Shared* s = g_shared.load();
  if (s != nullptr && info->si_code == SI_TIMER) sampleHere(*s, info, static_cast<const ucontext_t*>(context));
  g_in_handler.fetch_sub(1);
  errno = saved_errno;
}

// CLOCK_THREAD_CPUTIME_ID of another thread: the kernel's MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED),
// as glibc's pthread_getcpuclockid() builds it.
clockid_t threadCpuClock(int32_t tid) {
  return static_cast<clockid_t>((~static_cast<unsigned>(tid) << 3) | 6u);
}

}  // namespace

Status TimerSampler::open(const SamplerOptions& options, std::unique_ptr<Sampler>* out) {
#if !defined(__x86_64__) && !defined(__aarch64__)
  return Status::unavailable("timer mode walks frame pointers on x86-64 and AArch64 only");
#endif
  std::unique_ptr<TimerSampler> t(new TimerSampler(options));
  TimerSampler::Shared* expected = nullptr;
  if (!g_shared.compare_exchange_strong(expected, t->shared_.get()))
    return Status::unavailable("another self receiver already samples this process in timer mode");
  Status installed = Status::ok();
  std::call_once(g_handler_installed, [&installed] {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = onSigprof;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGPROF, &sa, nullptr) != 0)
      installed = Status::unavailable(std::string("sigaction(SIGPROF): ") + std::strerror(errno));
  });
  if (!installed.isOk()) return installed;  // the destructor releases the slot
  t->refreshStackRanges();
  *out = std::move(t);
  return Status::ok();
}

TimerSampler::TimerSampler(const SamplerOptions& options) : options_(options) {
  const size_t cpus = std::max(1u, std::thread::hardware_concurrency());
  // Half a second of samples of every CPU busy: the reader drains every 100 ms.
  const size_t slots = std::clamp<size_t>(options.frequency * cpus / 2, 256, 16384);
  shared_ = std::make_unique<Shared>(slots, options.max_stack_depth, 1'000'000'000ll / options.frequency);
}

TimerSampler::~TimerSampler() {
  Shared* mine = shared_.get();
  if (!g_shared.compare_exchange_strong(mine, nullptr)) return;  // never started: nothing can run

  for (auto& [t, timer] : timers_) timer_delete(static_cast<timer_t>(timer));
  while (g_in_handler.load() != 0) std::this_thread::yield();
}

void TimerSampler::refreshStackRanges() {
  auto table = std::make_unique<RangeTable>();
  table->ranges = writableRanges(readMaps());
  shared_->ranges.store(table.get());
  // Tables replaced earlier are freed once no handler runs: a later one reads the new table.
  if (g_in_handler.load() == 0) shared_->tables.clear();
  shared_->tables.push_back(std::move(table));
}

void TimerSampler::track(const std::vector<ThreadId>& threads) {
  // New threads' stacks must be in the table before their timers can fire.
  refreshStackRanges();
  for (auto it = timers_.begin(); it != timers_.end();) {
    if (std::binary_search(threads.begin(), threads.end(), it->first)) {
      ++it;
      continue;
    }
    timer_delete(static_cast<timer_t>(it->second));
    it = timers_.erase(it);
  }
  const int64_t period = shared_->period_ns;
  for (const ThreadId& t : threads) {
    if (timers_.count(t)) continue;
    sigevent sev;
    std::memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGPROF;
    sev.sigev_value.sival_int = t.tid;
    sev._sigev_un._tid = t.tid;
    timer_t timer;
    if (timer_create(threadCpuClock(t.tid), &sev, &timer) != 0) continue;  // exited meanwhile
    itimerspec its;
    its.it_interval.tv_sec = period / 1'000'000'000;
    its.it_interval.tv_nsec = period % 1'000'000'000;
    its.it_value = its.it_interval;
    if (timer_settime(timer, 0, &its, nullptr) != 0) {
      timer_delete(timer);
      continue;
    }
    timers_.emplace(t, timer);
  }
}

void TimerSampler::collect(std::chrono::milliseconds timeout, SampleSet* out) {
  std::this_thread::sleep_for(timeout);
  shared_->slots.drain(out);
}

}  // namespace proflow::receivers::self
