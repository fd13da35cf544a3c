// Label names as Prometheus-style backends (Pyroscope, Parca) accept them: [a-zA-Z_][a-zA-Z0-9_]*.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace proflow {

inline bool isValidLabelName(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// Replaces every other character with '_' and prefixes '_' when the name starts with a digit
// (service.name -> service_name, k8s.pod.name -> k8s_pod_name).
inline std::string sanitizeLabelName(std::string_view name) {
  std::string out;
  out.reserve(name.size() + 1);
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) out.push_back('_');
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    out.push_back(ok ? c : '_');
  }
  return out;
}

}  // namespace proflow
