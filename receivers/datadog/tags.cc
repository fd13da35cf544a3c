#include "receivers/datadog/tags.h"

#include <algorithm>
#include <string_view>
#include <unordered_set>

namespace proflow::receivers::datadog {
namespace {

struct Mapping {
  std::string_view tag;
  std::string_view attribute;
};

constexpr Mapping kMappings[] = {
    {"service", "service.name"},
    {"env", "deployment.environment.name"},
    {"version", "service.version"},
    {"host", "host.name"},
    {"hostname", "host.name"},
    {"runtime", "process.runtime.name"},
    {"runtime_version", "process.runtime.version"},
    {"runtime-id", "service.instance.id"},
    {"language", "telemetry.sdk.language"},
    {"process_id", "process.pid"},
    {"pid", "process.pid"},
    {"container_id", "container.id"},
};

std::string attributeFor(const std::string& tag) {
  for (const auto& m : kMappings)
    if (m.tag == tag) return std::string(m.attribute);
  return "datadog." + tag;
}

// OTel's language names (telemetry.sdk.language) for Datadog's.
std::string languageValue(std::string v) {
  if (v == "javascript") return "nodejs";
  if (v == "jvm") return "java";
  return v;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> resourceAttributes(const Tags& profiler_tags, const Tags& header_tags,
                                                                    const std::string& family) {
  std::vector<std::pair<std::string, std::string>> out;
  std::unordered_set<std::string> keys;  // the first value of a key wins, found in constant time
  auto add = [&](std::string key, std::string value) {
    if (value.empty() || !keys.insert(key).second) return;
    out.emplace_back(std::move(key), std::move(value));
  };
  std::string default_env;
  for (const Tags* tags : {&profiler_tags, &header_tags})
    for (const auto& [k, v] : *tags) {
      if (k == "default_env") {
        if (default_env.empty()) default_env = v;
        continue;
      }
      add(attributeFor(k), k == "language" ? languageValue(v) : v);
    }
  add("deployment.environment.name", default_env);
  add("service.name", "unknown_service");
  add("datadog.profiler.family", family);
  // service.name first: readers (and people) look for it there.
  std::stable_partition(out.begin(), out.end(), [](const auto& kv) { return kv.first == "service.name"; });
  return out;
}

}  // namespace proflow::receivers::datadog
