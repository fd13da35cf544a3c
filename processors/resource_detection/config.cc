#include "processors/resource_detection/config.h"

#include <algorithm>
#include <set>

namespace proflow::processors::resourcedetection {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

void validateEnvList(const std::vector<std::string>& vars, const char* field, config::ValidationContext& ctx) {
  for (const auto& v : vars)
    if (v.empty() || v.find('=') != std::string::npos)
      ctx.error(field, std::string(field) + " holds an invalid variable name '" + v + "'");
}

}  // namespace

bool ResourceDetectionConfig::has(const std::string& detector) const {
  return std::find(detectors.begin(), detectors.end(), detector) != detectors.end();
}

void ResourceDetectionConfig::validate(config::ValidationContext& ctx) const {
  if (detectors.empty()) ctx.error("detectors", "detectors must list at least one of: " + joined(validDetectors()));
  std::set<std::string> seen;
  for (size_t i = 0; i < detectors.size(); ++i) {
    const auto& d = detectors[i];
    const auto& valid = validDetectors();
    if (std::find(valid.begin(), valid.end(), d) == valid.end())
      ctx.error("detectors", "unknown detector '" + d + "'; valid detectors: " + joined(valid));
    else if (!seen.insert(d).second)
      ctx.error("detectors", "detector '" + d + "' is listed twice");
  }
  if (proc_path.empty()) ctx.error("proc_path", "proc_path must not be empty");
  for (const auto& s : system.hostname_sources)
    if (s != "os") ctx.error("system.hostname_sources", "unsupported hostname source '" + s + "'; valid sources: os");
  if (process.cache_size == 0) ctx.error("process.cache_size", "process.cache_size must be > 0");
  if (process.cache_ttl.value.count() <= 0) ctx.error("process.cache_ttl", "process.cache_ttl must be > 0");
  validateEnvList(k8s.pod_name_env, "k8s.pod_name_env", ctx);
  validateEnvList(k8s.namespace_env, "k8s.namespace_env", ctx);
  validateEnvList(k8s.node_name_env, "k8s.node_name_env", ctx);
  validateEnvList(k8s.container_name_env, "k8s.container_name_env", ctx);
  validateEnvList(k8s.pod_uid_env, "k8s.pod_uid_env", ctx);
}

}  // namespace proflow::processors::resourcedetection
