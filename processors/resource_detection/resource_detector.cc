#include "processors/resource_detection/resource_detector.h"

#include <algorithm>
#include <charconv>

#include "core/attributes/flat_attr_list.h"
#include "processors/resource_detection/container_detector.h"
#include "processors/resource_detection/env_detector.h"
#include "processors/resource_detection/k8s_detector.h"
#include "processors/resource_detection/process_detector.h"
#include "processors/resource_detection/system_detector.h"

namespace proflow::processors::resourcedetection {
namespace {

std::optional<int64_t> parsePid(std::string_view s) {
  int64_t pid = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), pid);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return pid;
}

}  // namespace

std::optional<int64_t> resourcePid(const attributes::AttrList& attrs) {
  for (const auto& a : attrs) {
    if (a.key != "process.pid") continue;
    std::optional<int64_t> pid;
    if (a.value.value_case() == otlp::AnyValue::kIntValue) pid = a.value.int_value();
    else if (a.value.value_case() == otlp::AnyValue::kStringValue) pid = parsePid(a.value.string_value());
    if (pid && *pid > 0) return pid;
    return std::nullopt;
  }
  return std::nullopt;
}

bool mergeIntoResource(const DetectedList& detected, bool override, attributes::AttrList& attrs) {
  bool changed = false;
  for (const auto& d : detected) {
    auto at = std::find_if(attrs.begin(), attrs.end(), [&](const attributes::Attr& a) { return a.key == d.key; });
    if (at != attrs.end() && !override) continue;
    if (at != attrs.end() && at->value.SerializeAsString() == d.value.SerializeAsString()) continue;
    if (at == attrs.end()) at = attrs.insert(attrs.end(), attributes::Attr{d.key, {}, -1, false});
    at->value = d.value;
    at->changed = true;
    changed = true;
  }
  return changed;
}

ResourceDetector::ResourceDetector(const ResourceDetectionConfig& config)
    : config_(config), cache_(config.process.cache_size, config.process.cache_ttl.value) {
  for (const auto& name : config_.detectors) {
    if (name == "env") kinds_.push_back(Kind::kEnv);
    else if (name == "system") kinds_.push_back(Kind::kSystem);
    else if (name == "process") kinds_.push_back(Kind::kProcess);
    else if (name == "container") kinds_.push_back(Kind::kContainer);
    else if (name == "k8s") kinds_.push_back(Kind::kK8s);
  }
  static_.resize(kinds_.size());
}

std::vector<std::string> ResourceDetector::detectStatic() {
  std::vector<std::string> problems;
  for (size_t i = 0; i < kinds_.size(); ++i) {
    DetectedList& out = static_[i];
    out.clear();
    switch (kinds_[i]) {
      case Kind::kEnv: {
        std::string error;
        out = detectEnv(&error);
        if (!error.empty()) problems.push_back(error);
        break;
      }
      case Kind::kSystem: out = detectSystem(config_.system); break;
      case Kind::kK8s: out = detectK8s(config_.k8s); break;
      case Kind::kContainer:
        if (config_.container.self) addString(out, "container.id", detectContainerId(config_.proc_path, "self"));
        break;
      case Kind::kProcess: break;  // needs a pid
    }
  }
  return problems;
}

std::vector<DetectedList> ResourceDetector::detectPid(int64_t pid) const {
  std::vector<DetectedList> lists(kinds_.size());
  for (size_t i = 0; i < kinds_.size(); ++i) {
    if (kinds_[i] == Kind::kProcess) lists[i] = detectProcess(config_.proc_path, pid, config_.process);
    if (kinds_[i] == Kind::kContainer)
      addString(lists[i], "container.id", detectContainerId(config_.proc_path, std::to_string(pid)));
  }
  return lists;
}

DetectedList ResourceDetector::attributesFor(std::optional<int64_t> pid, PidCache::Clock::time_point now,
                                             bool* detected) {
  PidCache::Value per_pid;
  // An untrusted sender's pid is never looked up: it could name any process on the machine.
  if (pid && config_.trust_pids) per_pid = cache_.get(*pid, now, [this](int64_t p) { return detectPid(p); }, detected);
  DetectedList merged;
  for (size_t i = 0; i < kinds_.size(); ++i) {
    bool pid_dependent = kinds_[i] == Kind::kProcess || kinds_[i] == Kind::kContainer;
    // A resource naming a process gets that process's container, never the daemon's own.
    if (pid_dependent && pid) {
      if (per_pid) mergeMissing(merged, (*per_pid)[i]);
      continue;
    }
    mergeMissing(merged, static_[i]);
  }
  return merged;
}

ResourceDetector::ApplyResult ResourceDetector::apply(flat::Batch& batch, PidCache::Clock::time_point now) {
  ApplyResult result;
  for (flat::Resource& r : batch.resources) {
    attributes::AttrList attrs = attributes::readKeyValues(batch, r.attributes);
    bool ran = false;
    DetectedList detected = attributesFor(resourcePid(attrs), now, &ran);
    if (ran) ++result.pid_detections;
    if (!mergeIntoResource(detected, config_.override, attrs)) continue;
    attributes::writeKeyValues(batch, &r.attributes, attrs);
    r.present = true;
    ++result.changed_resources;
  }
  return result;
}

}  // namespace proflow::processors::resourcedetection
