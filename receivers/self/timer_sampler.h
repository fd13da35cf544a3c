// timer mode, for where perf events are refused (seccomp in containers, perf_event_paranoid 3):
// one POSIX timer per thread on that thread's CPU-time clock (timer_create with
// CLOCK_THREAD_CPUTIME_ID's per-thread id and SIGEV_THREAD_ID), so a thread gets SIGPROF after each
// 1/frequency s of CPU it used, user and kernel time alike. The handler runs on the sampled thread,
// walks its frame pointers (frame_walker.h) within the stack mapping that holds its stack pointer,
// and writes the sample into a preallocated slot of a lock-free buffer the sampler thread drains.
//
// One timer-mode sampler per process at a time (the signal handler is process-wide). SIGPROF keeps
// this handler installed after the sampler stops: a signal still queued then is ignored, not fatal.
#pragma once

#include <map>
#include <memory>

#include "receivers/self/sampler.h"

namespace proflow::receivers::self {

class TimerSampler final : public Sampler {
 public:
  // Fails when another timer-mode sampler runs in this process or the CPU is not supported (x86-64
  // and AArch64 are).
  static Status open(const SamplerOptions& options, std::unique_ptr<Sampler>* out);
  ~TimerSampler() override;

  std::string_view mode() const override { return "timer"; }
  void track(const std::vector<ThreadId>& threads) override;
  void collect(std::chrono::milliseconds timeout, SampleSet* out) override;
  size_t tracked() const override { return timers_.size(); }

  struct Shared;  // what the signal handler reads

 private:
  explicit TimerSampler(const SamplerOptions& options);
  void refreshStackRanges();

  SamplerOptions options_;
  std::unique_ptr<Shared> shared_;
  std::map<ThreadId, void*> timers_;  // timer_t
};

}  // namespace proflow::receivers::self
