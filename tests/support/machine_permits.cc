#include "tests/support/machine_permits.h"

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace proflow::testing {
namespace {

bool onPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string candidate = dirs.substr(start, end - start) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

// perf_event_open of a software CPU-clock sampling event; 0 or the errno.
int openCpuClock(bool system_wide, bool exclude_kernel) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CPU_CLOCK;
  attr.sample_period = 1000000;
  attr.disabled = 1;
  attr.exclude_kernel = exclude_kernel ? 1 : 0;
  attr.exclude_hv = 1;
  const long fd = syscall(SYS_perf_event_open, &attr, system_wide ? -1 : 0, system_wide ? 0 : -1, -1, 0);
  if (fd < 0) return errno;
  close(static_cast<int>(fd));
  return 0;
}

}  // namespace

bool requireAllTests() {
  const char* v = std::getenv("PROFLOW_REQUIRE_ALL_TESTS");
  return v != nullptr && *v != '\0' && std::string(v) != "0";
}

std::string perfRecordRefused(bool system_wide) {
  if (!onPath("perf")) return "perf is not installed (Debian linux-perf, see scripts/install-deps.sh)";
  // perf record falls back to user-space samples when kernel ones are refused: so does the probe.
  int err = openCpuClock(system_wide, false);
  if (err != 0) err = openCpuClock(system_wide, true);
  if (err == 0) return "";
  std::string paranoid;
  std::ifstream("/proc/sys/kernel/perf_event_paranoid") >> paranoid;
  return std::string("perf_event_open refused (") + strerrorname_np(err) + ": " + std::strerror(err) +
         ") with kernel.perf_event_paranoid=" + (paranoid.empty() ? "?" : paranoid) + ": recording" +
         (system_wide ? " system-wide" : "") + " needs root or a value of at most " + (system_wide ? "0" : "2") +
         ", and a container that allows perf_event_open";
}

}  // namespace proflow::testing
