#include "core/runtime/cpu_limits.h"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>

namespace proflow {
namespace {

std::optional<std::string> readFirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

// cgroup v2 `cpu.max`: "<quota> <period>" or "max <period>".
std::optional<double> parseCpuMax(const std::string& line) {
  std::istringstream in(line);
  std::string quota;
  double period = 0;
  if (!(in >> quota >> period) || quota == "max" || period <= 0) return std::nullopt;
  try {
    const double q = std::stod(quota);
    if (q > 0) return q / period;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// cgroup v1: cfs_quota_us is -1 when unlimited.
std::optional<double> readCfsQuota(const std::string& dir) {
  auto quota = readFirstLine(dir + "/cpu.cfs_quota_us");
  auto period = readFirstLine(dir + "/cpu.cfs_period_us");
  if (!quota || !period) return std::nullopt;
  try {
    const double q = std::stod(*quota), p = std::stod(*period);
    if (q > 0 && p > 0) return q / p;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::optional<double> smaller(std::optional<double> a, std::optional<double> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

// The limits of `cgroup` and of every ancestor up to the mount point `mount`. Inside a container
// the process's cgroup path often names a host path that is not mounted; the mount root (the
// container's own cgroup) is always read.
template <class ReadLimit>
std::optional<double> limitOnPath(const std::string& mount, std::string cgroup, ReadLimit read) {
  std::optional<double> limit = read(mount);
  while (!cgroup.empty() && cgroup != "/") {
    limit = smaller(limit, read(mount + cgroup));
    cgroup.resize(cgroup.find_last_of('/'));
  }
  return limit;
}

}  // namespace

unsigned affinityCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

std::optional<double> cgroupCpuQuota(const std::string& root) {
  std::ifstream cgroups(root + "/proc/self/cgroup");
  std::optional<double> limit;
  std::string line;
  // Lines are "<id>:<controllers>:<path>"; v2 is "0::<path>", v1 lists "cpu" among the controllers.
  while (std::getline(cgroups, line)) {
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controllers.empty()) {
      limit = smaller(limit, limitOnPath(root + "/sys/fs/cgroup", path, [](const std::string& dir) {
                        auto l = readFirstLine(dir + "/cpu.max");
                        return l ? parseCpuMax(*l) : std::nullopt;
                      }));
      continue;
    }
    std::istringstream list(controllers);
    for (std::string c; std::getline(list, c, ',');) {
      if (c != "cpu") continue;
      for (const char* mount : {"/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu"})
        limit = smaller(limit, limitOnPath(root + mount, path, readCfsQuota));
    }
  }
  return limit;
}

unsigned usableCpus(unsigned affinity, std::optional<double> quota) {
  unsigned cpus = std::max(1u, affinity);
  if (quota) cpus = std::min(cpus, static_cast<unsigned>(std::ceil(*quota - 1e-9)));
  return std::max(1u, cpus);
}

unsigned usableCpus() { return usableCpus(affinityCpus(), cgroupCpuQuota()); }

RuntimeSize resolveRuntimeSize(RuntimeSize requested, unsigned usable_cpus) {
  RuntimeSize r = requested;
  if (r.workers == 0) r.workers = std::max(1u, usable_cpus);
  if (r.io_threads == 0) r.io_threads = std::max(1u, r.workers / 4);
  return r;
}

}  // namespace proflow
