// Configuration of the `resourcedetection` processor.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/config_reader.h"
#include "core/config/config_types.h"

namespace proflow::processors::resourcedetection {

// Names accepted in `detectors`, in the order the README documents them.
inline const std::vector<std::string>& validDetectors() {
  static const std::vector<std::string> names = {"env", "system", "process", "container", "k8s"};
  return names;
}

struct SystemConfig {
  std::vector<std::string> hostname_sources = {"os"};
  std::vector<std::string> machine_id_files = {"/etc/machine-id", "/var/lib/dbus/machine-id"};

  template <class V>
  void visit(V& v) {
    v.field("hostname_sources", hostname_sources, "where host.name comes from; only `os` (gethostname)");
    v.field("machine_id_files", machine_id_files, "host.id: the first of these files that holds an id");
  }
};

struct ProcessConfig {
  uint32_t cache_size = 4096;
  config::Duration cache_ttl = std::chrono::minutes(1);
  // Off by default: command lines carry secrets (passwords, tokens in argv).
  bool command_line = false;
  bool command_args = false;
  bool runtime = true;

  template <class V>
  void visit(V& v) {
    v.field("cache_size", cache_size, "pids whose process/container attributes are remembered");
    v.field("cache_ttl", cache_ttl, "how long a pid's attributes are trusted (pids are reused)");
    v.field("command_line", command_line, "set process.command_line (argv joined by spaces; argv may hold secrets)");
    v.field("command_args", command_args, "set process.command_args (argv as a string array; argv may hold secrets)");
    v.field("runtime", runtime, "set process.runtime.* from the executable (java release file, Go build info, name)");
  }
};

struct ContainerConfig {
  bool self = false;

  template <class V>
  void visit(V& v) {
    v.field("self", self, "resources without process.pid get this daemon's own container.id");
  }
};

// Each attribute lists environment variables tried in order; the first one set wins.
struct K8sConfig {
  std::vector<std::string> pod_name_env = {"K8S_POD_NAME"};
  std::vector<std::string> namespace_env = {"K8S_NAMESPACE_NAME", "K8S_POD_NAMESPACE"};
  std::vector<std::string> node_name_env = {"K8S_NODE_NAME"};
  std::vector<std::string> container_name_env = {"K8S_CONTAINER_NAME"};
  std::vector<std::string> pod_uid_env = {"K8S_POD_UID"};
  std::string downward_api_path;  // empty = no downward-API volume
  bool pod_labels = true;
  bool pod_annotations = false;

  template <class V>
  void visit(V& v) {
    v.field("pod_name_env", pod_name_env, "variables holding k8s.pod.name");
    v.field("namespace_env", namespace_env, "variables holding k8s.namespace.name");
    v.field("node_name_env", node_name_env, "variables holding k8s.node.name");
    v.field("container_name_env", container_name_env, "variables holding k8s.container.name");
    v.field("pod_uid_env", pod_uid_env, "variables holding k8s.pod.uid");
    v.field("downward_api_path", downward_api_path,
            "downward-API volume with files name, namespace, uid, node_name, container_name, labels, annotations");
    v.field("pod_labels", pod_labels, "downward-API `labels` file -> k8s.pod.label.<key>");
    v.field("pod_annotations", pod_annotations, "downward-API `annotations` file -> k8s.pod.annotation.<key>");
  }
};

struct ResourceDetectionConfig {
  std::vector<std::string> detectors = {"env"};
  bool override = false;
  // A sender names any pid it likes: what procfs says about that pid (another process's executable,
  // owner, command line) is attached only when the pipeline's receivers are trusted to name processes.
  bool trust_pids = false;
  std::string proc_path = "/proc";
  SystemConfig system;
  ProcessConfig process;
  ContainerConfig container;
  K8sConfig k8s;

  template <class V>
  void visit(V& v) {
    v.field("detectors", detectors, "env, system, process, container, k8s; the first one setting a key wins");
    v.field("override", override, "replace attributes the source already set (default: keep them)");
    v.field("trust_pids", trust_pids,
            "true declares every receiver of this pipeline trusted to name processes (e.g. the node's own profiler "
            "on an endpoint nothing else reaches): the process and container detectors read procfs for the "
            "process.pid of its resources; false: resources naming a pid get nothing from them");
    v.field("proc_path", proc_path, "procfs root, e.g. /host/proc in a container watching the host's pids");
    v.field("system", system);
    v.field("process", process);
    v.field("container", container);
    v.field("k8s", k8s);
  }
  void validate(config::ValidationContext& ctx) const;

  bool has(const std::string& detector) const;
};

}  // namespace proflow::processors::resourcedetection
