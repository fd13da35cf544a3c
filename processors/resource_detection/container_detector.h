// The `container` detector: container.id of a process, from its cgroup paths (docker, containerd,
// cri-o, podman, kubepods; cgroup v1 and v2), else from its mount table (cgroup v2 with a private
// cgroup namespace shows only "0::/").
#pragma once

#include <string>
#include <string_view>

namespace proflow::processors::resourcedetection {

// The 64-hex container id in a /proc/<pid>/cgroup body, "" when none. The innermost path component
// carrying an id wins: `/docker/<id>`, `docker-<id>.scope`, `cri-containerd-<id>.scope`,
// `crio-<id>.scope`, `libpod-<id>.scope`, `/kubepods/<qos>/pod<uid>/<id>`, ... (conmon scopes are
// the runtime's monitor, not the container, and are skipped).
std::string containerIdFromCgroup(std::string_view cgroup);

// The id in a /proc/<pid>/mountinfo body: a mount source under `.../containers/<id>/` or
// `.../overlay-containers/<id>/` (docker's and podman's hostname, hosts, resolv.conf), "" when none.
std::string containerIdFromMountinfo(std::string_view mountinfo);

// True when every cgroup path of the body is "/" (cgroup namespace hides the real path).
bool onlyRootCgroups(std::string_view cgroup);

// cgroup first, mountinfo as fallback when the cgroup paths are all "/" or unreadable, for `<proc_root>/<pid_dir>` where pid_dir is a pid or "self".
std::string detectContainerId(const std::string& proc_root, const std::string& pid_dir);

}  // namespace proflow::processors::resourcedetection
