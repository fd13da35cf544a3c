// Threads shared by all components: one Asio io_context for network I/O and timers, and a worker
// pool for CPU-heavy work (decoding, conversion, symbolization) so it never stalls the I/O threads.
// Both are sized to the CPUs this process may use (affinity mask and cgroup CPU quota), so a
// 16-core gateway runs 16 workers and a container limited to 2 CPUs runs 2.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>

#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace proflow {

// CPUs in this process's affinity mask (sched_getaffinity); at least 1.
unsigned affinityCpus();

// The cgroup CPU quota of this process in CPUs (quota / period), read from the files under `root`
// ("" = the real /): cgroup v2 `cpu.max` of the process's cgroup and its ancestors, else cgroup v1
// `cpu.cfs_quota_us` / `cpu.cfs_period_us`. The smallest limit on the path wins; nullopt = no limit.
std::optional<double> cgroupCpuQuota(const std::string& root = "");

// CPUs this process may use: min(affinity CPUs, cgroup quota rounded up), at least 1.
unsigned usableCpus(unsigned affinity, std::optional<double> quota);
unsigned usableCpus();

// Thread counts of the runtime; 0 = sized from usableCpus().
struct RuntimeSize {
  unsigned workers = 0;
  unsigned io_threads = 0;
};
// Fills the zeros: workers = usable CPUs; io_threads = one per 4 workers (sockets and timers are
// cheap next to decoding), at least 1.
RuntimeSize resolveRuntimeSize(RuntimeSize requested, unsigned usable_cpus);

class Runtime {
 public:
  // io_threads handle sockets and timers; worker_threads run decode/convert work.
  explicit Runtime(unsigned io_threads = 1, unsigned worker_threads = 2);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  boost::asio::io_context& io() { return io_; }
  boost::asio::thread_pool& workers() { return workers_; }
  unsigned workerCount() const { return worker_count_; }
  unsigned ioThreadCount() const { return io_thread_count_; }

  // Stops the I/O threads and waits for queued worker tasks. Components shut down before this.
  void stop();

 private:
  unsigned worker_count_;
  unsigned io_thread_count_;
  boost::asio::io_context io_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> guard_;
  std::vector<std::thread> io_threads_;
  boost::asio::thread_pool workers_;
};

}  // namespace proflow
