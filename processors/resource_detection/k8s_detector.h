// The `k8s` detector: the pod's own identity from downward-API environment variables or a
// downward-API volume (the daemon runs in the pod it describes, e.g. as a sidecar or per-node agent).
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "processors/resource_detection/config.h"
#include "processors/resource_detection/detected.h"

namespace proflow::processors::resourcedetection {

// Parses a downward-API `labels` / `annotations` file: one `key="value"` per line, the value a
// Go-quoted string (\" \\ \n escapes). Malformed lines are skipped.
std::map<std::string, std::string> parseDownwardApiMap(std::string_view body);

// k8s.pod.name, k8s.namespace.name, k8s.node.name, k8s.container.name, k8s.pod.uid (variables first,
// then the volume's files `name`, `namespace`, `node_name`, `container_name`, `uid`), plus
// k8s.pod.label.<key> / k8s.pod.annotation.<key> from the volume when enabled.
DetectedList detectK8s(const K8sConfig& config);

}  // namespace proflow::processors::resourcedetection
