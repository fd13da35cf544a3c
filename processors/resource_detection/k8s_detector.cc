#include "processors/resource_detection/k8s_detector.h"

#include <cstdlib>

#include "processors/resource_detection/proc_files.h"

namespace proflow::processors::resourcedetection {
namespace {

std::string firstEnv(const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (const char* v = std::getenv(n.c_str()); v && *v) return v;
  return "";
}

std::string volumeFile(const K8sConfig& config, const char* name) {
  if (config.downward_api_path.empty()) return "";
  std::string body = readSmallFile(config.downward_api_path + "/" + name).value_or("");
  while (!body.empty() && (body.back() == '\n' || body.back() == ' ')) body.pop_back();
  return body;
}

// Unquotes a Go-quoted string body (without the surrounding quotes); false on a bad escape.
bool unquote(std::string_view s, std::string& out) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i == s.size()) return false;
    switch (s[i]) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case '\\': case '"': case '\'': out += s[i]; break;
      default: return false;
    }
  }
  return true;
}

void addMap(const K8sConfig& config, const char* file, const char* prefix, DetectedList& out) {
  if (config.downward_api_path.empty()) return;
  auto body = readSmallFile(config.downward_api_path + "/" + file);
  if (!body) return;
  for (const auto& [k, v] : parseDownwardApiMap(*body)) addString(out, std::string(prefix) + k, v);
}

}  // namespace

std::map<std::string, std::string> parseDownwardApiMap(std::string_view body) {
  std::map<std::string, std::string> out;
  while (!body.empty()) {
    size_t nl = body.find('\n');
    std::string_view line = body.substr(0, nl);
    body = nl == std::string_view::npos ? std::string_view() : body.substr(nl + 1);
    size_t eq = line.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    std::string_view quoted = line.substr(eq + 1);
    if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"') continue;
    std::string value;
    if (unquote(quoted.substr(1, quoted.size() - 2), value)) out[std::string(line.substr(0, eq))] = value;
  }
  return out;
}

DetectedList detectK8s(const K8sConfig& config) {
  struct Source {
    const char* key;
    const std::vector<std::string>& env;
    const char* file;
  };
  const Source sources[] = {
      {"k8s.pod.name", config.pod_name_env, "name"},
      {"k8s.namespace.name", config.namespace_env, "namespace"},
      {"k8s.node.name", config.node_name_env, "node_name"},
      {"k8s.container.name", config.container_name_env, "container_name"},
      {"k8s.pod.uid", config.pod_uid_env, "uid"},
  };
  DetectedList out;
  for (const auto& s : sources) {
    std::string v = firstEnv(s.env);
    addString(out, s.key, v.empty() ? volumeFile(config, s.file) : v);
  }
  if (config.pod_labels) addMap(config, "labels", "k8s.pod.label.", out);
  if (config.pod_annotations) addMap(config, "annotations", "k8s.pod.annotation.", out);
  return out;
}

}  // namespace proflow::processors::resourcedetection
