#include "processors/resource_detection/container_detector.h"

#include <vector>

#include "processors/resource_detection/proc_files.h"

namespace proflow::processors::resourcedetection {
namespace {

constexpr size_t kIdLength = 64;

bool isHexId(std::string_view s) {
  if (s.size() != kIdLength) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    size_t at = s.find(sep);
    out.push_back(s.substr(0, at));
    if (at == std::string_view::npos) return out;
    s.remove_prefix(at + 1);
  }
}

// `<runtime>-<id>.scope`, `<id>.scope` or `<id>`; "" for anything else (including conmon scopes).
std::string_view idOfComponent(std::string_view c) {
  if (c.ends_with(".scope")) c.remove_suffix(6);
  if (c.find("conmon") != std::string_view::npos) return {};
  if (c.size() > kIdLength) {
    // systemd driver: the id follows the last '-' (`cri-containerd-<id>`); cgroupfs: ':' (`crio:<id>`).
    size_t sep = c.find_last_of("-:");
    if (sep == std::string_view::npos) return {};
    c.remove_prefix(sep + 1);
  }
  return isHexId(c) ? c : std::string_view();
}

// The innermost id of one cgroup path: nested systemd inside a container adds `/init.scope` etc.
std::string_view idOfPath(std::string_view path) {
  auto parts = split(path, '/');
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    if (auto id = idOfComponent(*it); !id.empty()) return id;
  return {};
}

}  // namespace

std::string containerIdFromCgroup(std::string_view cgroup) {
  for (auto line : split(cgroup, '\n')) {
    // hierarchy-id:controllers:path (v2: "0::/path"); the path may itself contain ':'.
    size_t first = line.find(':');
    if (first == std::string_view::npos) continue;
    size_t second = line.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    if (auto id = idOfPath(line.substr(second + 1)); !id.empty()) return std::string(id);
  }
  return "";
}

std::string containerIdFromMountinfo(std::string_view mountinfo) {
  for (auto line : split(mountinfo, '\n')) {
    // Field 4 is the root of the mount within its filesystem: /var/lib/docker/containers/<id>/hostname.
    auto fields = split(line, ' ');
    if (fields.size() < 5) continue;
    auto parts = split(fields[3], '/');
    for (size_t i = 0; i + 2 < parts.size(); ++i)
      if ((parts[i] == "containers" || parts[i] == "overlay-containers") && isHexId(parts[i + 1]))
        return std::string(parts[i + 1]);
  }
  return "";
}

bool onlyRootCgroups(std::string_view cgroup) {
  for (auto line : split(cgroup, '\n')) {
    size_t first = line.find(':');
    if (first == std::string_view::npos) continue;
    size_t second = line.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    if (line.substr(second + 1) != "/") return false;
  }
  return true;
}

std::string detectContainerId(const std::string& proc_root, const std::string& pid_dir) {
  const std::string dir = proc_root + "/" + pid_dir;
  auto cgroup = readSmallFile(dir + "/cgroup");
  if (cgroup)
    if (auto id = containerIdFromCgroup(*cgroup); !id.empty()) return id;
  // The mount table is only asked when the cgroup path is hidden (a private cgroup namespace shows
  // "0::/"): a host process under a named cgroup is not in a container, whatever it has mounted.
  if (cgroup && !onlyRootCgroups(*cgroup)) return "";
  if (auto mounts = readSmallFile(dir + "/mountinfo")) return containerIdFromMountinfo(*mounts);
  return "";
}

}  // namespace proflow::processors::resourcedetection
