// perf_event mode: one software CPU-clock event per thread of the process (user space only, which
// perf_event_paranoid 2 allows for a process's own threads), each with a small ring buffer the
// kernel writes its samples (IP, TID, TIME, PERIOD, user CALLCHAIN) into; one thread polls and
// drains them all.
//
// One ring per thread rather than one shared one: PERF_EVENT_IOC_SET_OUTPUT only joins events of
// the same task when they are not bound to a CPU, and per-CPU binding would need threads x CPUs
// events.
#pragma once

#include <map>
#include <memory>

#include "receivers/self/sampler.h"

namespace proflow::receivers::self {

class PerfEventSampler final : public Sampler {
 public:
  // Opens an event on the calling thread to see whether the kernel allows it; the error names the
  // errno (EACCES/EPERM: perf_event_paranoid or seccomp; ENOSYS/ENOENT: no perf events).
  static Status probe(const SamplerOptions& options);

  explicit PerfEventSampler(const SamplerOptions& options);
  ~PerfEventSampler() override;

  std::string_view mode() const override { return "perf_event"; }
  void track(const std::vector<ThreadId>& threads) override;
  void collect(std::chrono::milliseconds timeout, SampleSet* out) override;
  size_t tracked() const override { return events_.size(); }

 private:
  struct Event;
  void drain(Event& e, SampleSet* out);

  SamplerOptions options_;
  size_t data_pages_;
  std::map<ThreadId, std::unique_ptr<Event>> events_;
  std::vector<uint64_t> frames_;
  std::vector<unsigned char> wrapped_;  // a record that wraps around the end of a ring
};

}  // namespace proflow::receivers::self
