// How many CPUs this process may use, for sizing the shared runtime (service.runtime) and
// per-CPU structures: the affinity mask, capped by the cgroup CPU quota a container runs under, so a
// 16-core gateway runs 16 workers and a container limited to 2 CPUs runs 2.
#pragma once

#include <optional>
#include <string>

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

}  // namespace proflow
