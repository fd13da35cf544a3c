// What both sampling modes produce and how the receiver drives them.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/status.h"

namespace proflow::receivers::self {

// Samples of one interval: one record per sample, frames (leaf first) in one shared column.
struct SampleSet {
  struct Record {
    int32_t tid = 0;
    uint64_t time_ns = 0;  // CLOCK_MONOTONIC
    int64_t period_ns = 0;
    uint32_t frames_begin = 0, frames_size = 0;
  };
  std::vector<Record> records;
  std::vector<uint64_t> frames;
  uint64_t lost = 0;  // samples taken but not delivered (full buffers)

  void add(int32_t tid, uint64_t time_ns, int64_t period_ns, std::span<const uint64_t> stack) {
    records.push_back({tid, time_ns, period_ns, static_cast<uint32_t>(frames.size()), static_cast<uint32_t>(stack.size())});
    frames.insert(frames.end(), stack.begin(), stack.end());
  }
  std::span<const uint64_t> stack(const Record& r) const { return {frames.data() + r.frames_begin, r.frames_size}; }
  void append(const SampleSet& other) {
    for (const Record& r : other.records) add(r.tid, r.time_ns, r.period_ns, other.stack(r));
    lost += other.lost;
  }
  void clear() {
    records.clear();
    frames.clear();
    lost = 0;
  }
  bool empty() const { return records.empty() && lost == 0; }
};

// A thread of this process, identified by its id and start time (ids are reused).
struct ThreadId {
  int32_t tid = 0;
  uint64_t start_ticks = 0;
  auto operator<=>(const ThreadId&) const = default;
};

struct SamplerOptions {
  uint32_t frequency = 19;
  uint32_t max_stack_depth = 127;
};

// One sampling mode. Used from one thread (the receiver's sampler thread) only.
class Sampler {
 public:
  virtual ~Sampler() = default;
  // "perf_event" or "timer".
  virtual std::string_view mode() const = 0;
  // Samples exactly these threads from now on: new ones are added, the others dropped.
  virtual void track(const std::vector<ThreadId>& threads) = 0;
  // Waits at most `timeout` for samples, then moves what is ready into `out`.
  virtual void collect(std::chrono::milliseconds timeout, SampleSet* out) = 0;
  // Threads being sampled now (some may fail to open: too many files, locked-memory limits).
  virtual size_t tracked() const = 0;
};

// Opens the sampler of `mode` ("auto", "perf_event", "timer"). auto takes perf_event when the
// kernel allows it and the timer otherwise; `why` then says why perf_event was not used.
Status openSampler(const std::string& mode, const SamplerOptions& options, std::unique_ptr<Sampler>* out,
                   std::string* why);

}  // namespace proflow::receivers::self
