#include "processors/resource_detection/system_detector.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <cctype>
#include <fstream>

#include "core/util/ascii.h"

namespace proflow::processors::resourcedetection {

std::string hostArchFromMachine(std::string_view machine) {
  struct Pair {
    std::string_view uname, semconv;
  };
  static constexpr Pair kArch[] = {
      {"x86_64", "amd64"}, {"amd64", "amd64"},   {"aarch64", "arm64"},   {"arm64", "arm64"},
      {"i386", "x86"},     {"i486", "x86"},      {"i586", "x86"},        {"i686", "x86"},
      {"armv6l", "arm32"}, {"armv7l", "arm32"},  {"armv8l", "arm32"},    {"arm", "arm32"},
      {"ppc", "ppc32"},    {"ppc64", "ppc64"},   {"ppc64le", "ppc64"},   {"s390x", "s390x"},
      {"ia64", "ia64"},
  };
  for (const auto& p : kArch)
    if (p.uname == machine) return std::string(p.semconv);
  return std::string(machine);
}

std::string osTypeFromSysname(std::string_view sysname) {
  return toLowerAscii(sysname);
}

std::string readMachineId(const std::vector<std::string>& files) {
  for (const auto& f : files) {
    std::ifstream in(f);
    std::string line;
    while (in && std::getline(in, line)) {
      while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
      if (!line.empty()) return line;
    }
  }
  return "";
}

DetectedList detectSystem(const SystemConfig& config) {
  DetectedList out;
  char host[256] = {};
  if (!config.hostname_sources.empty() && gethostname(host, sizeof(host) - 1) == 0) addString(out, "host.name", host);
  addString(out, "host.id", readMachineId(config.machine_id_files));
  struct utsname u {};
  if (uname(&u) == 0) {
    addString(out, "os.type", osTypeFromSysname(u.sysname));
    addString(out, "host.arch", hostArchFromMachine(u.machine));
  }
  return out;
}

}  // namespace proflow::processors::resourcedetection
