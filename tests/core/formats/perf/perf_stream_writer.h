// Writes perf.data in pipe mode (as `perf record -o -` does) from records the test names: one
// cpu-clock event sampling ip, pid/tid, time, period and the callchain, every other record carrying
// its pid/tid and time (sample_id_all). For process histories a live recording cannot be made to
// show on demand (perf record's own FORKs for processes already running, pids reused); perf script
// reads the result like any recording.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace proflow::testing {

class PerfStreamWriter {
 public:
  PerfStreamWriter();

  void comm(uint32_t pid, uint32_t tid, const std::string& name, uint64_t time);
  // `synthesized`: written by perf record for a process already running when it started
  // (PERF_RECORD_MISC_FORK_EXEC), not by the kernel.
  void fork(uint32_t pid, uint32_t ppid, uint64_t time, bool synthesized);
  void exit(uint32_t pid, uint32_t ppid, uint64_t time);
  void mmap2(uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff, const std::string& file, uint64_t time);
  // A user-space sample of `pid`'s main thread; `callchain` leaf first.
  void sample(uint32_t pid, const std::vector<uint64_t>& callchain, uint64_t time);

  const std::string& bytes() const { return out_; }

 private:
  void record(uint32_t type, uint16_t misc, const std::string& body, uint32_t pid, uint32_t tid, uint64_t time);
  std::string out_;
};

}  // namespace proflow::testing
