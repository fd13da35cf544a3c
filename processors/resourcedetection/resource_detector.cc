#include "processors/resourcedetection/resource_detector.h"

#include <charconv>

#include "core/dictionary_builder.h"
#include "processors/resourcedetection/container_detector.h"
#include "processors/resourcedetection/env_detector.h"
#include "processors/resourcedetection/k8s_detector.h"
#include "processors/resourcedetection/process_detector.h"
#include "processors/resourcedetection/system_detector.h"

namespace proflow::processors::resourcedetection {
namespace {

using KeyValues = google::protobuf::RepeatedPtrField<otlp::KeyValue>;

std::string_view keyOf(const otlp::KeyValue& kv, const otlp::Dictionary& dict) {
  // key_strindex 0 is "": an inline key is meant then (OTLP rule).
  return kv.key_strindex() != 0 ? dictString(dict, kv.key_strindex()) : std::string_view(kv.key());
}

// The value with a string reference replaced by the string itself, for comparing.
otlp::AnyValue resolved(const otlp::AnyValue& v, const otlp::Dictionary& dict) {
  if (v.value_case() != otlp::AnyValue::kStringValueStrindex) return v;
  return stringValue(dictString(dict, v.string_value_strindex()));
}

std::optional<int64_t> parsePid(std::string_view s) {
  int64_t pid = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), pid);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return pid;
}

}  // namespace

std::optional<int64_t> resourcePid(const KeyValues& attrs, const otlp::Dictionary& dict) {
  for (const auto& kv : attrs) {
    if (keyOf(kv, dict) != "process.pid") continue;
    const auto& v = kv.value();
    std::optional<int64_t> pid;
    if (v.value_case() == otlp::AnyValue::kIntValue) pid = v.int_value();
    else if (v.value_case() == otlp::AnyValue::kStringValue) pid = parsePid(v.string_value());
    else if (v.value_case() == otlp::AnyValue::kStringValueStrindex)
      pid = parsePid(dictString(dict, v.string_value_strindex()));
    if (pid && *pid > 0) return pid;
    return std::nullopt;
  }
  return std::nullopt;
}

bool mergeIntoResource(const DetectedList& detected, bool override, const otlp::Dictionary& dict, KeyValues* attrs) {
  bool changed = false;
  for (const auto& d : detected) {
    int at = -1;
    for (int i = 0; i < attrs->size() && at < 0; ++i)
      if (keyOf((*attrs)[i], dict) == d.key) at = i;
    if (at >= 0 && !override) continue;
    if (at >= 0 && resolved((*attrs)[at].value(), dict).SerializeAsString() == d.value.SerializeAsString()) continue;
    otlp::KeyValue kv;
    kv.set_key(d.key);
    *kv.mutable_value() = d.value;
    if (at >= 0) (*attrs)[at] = std::move(kv);
    else *attrs->Add() = std::move(kv);
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
  if (pid) per_pid = cache_.get(*pid, now, [this](int64_t p) { return detectPid(p); }, detected);
  DetectedList merged;
  for (size_t i = 0; i < kinds_.size(); ++i) {
    bool pid_dependent = kinds_[i] == Kind::kProcess || kinds_[i] == Kind::kContainer;
    // A resource naming a process gets that process's container, never the daemon's own.
    mergeMissing(merged, pid_dependent && per_pid ? (*per_pid)[i] : static_[i]);
  }
  return merged;
}

ResourceDetector::ApplyResult ResourceDetector::apply(otlp::Request& request, PidCache::Clock::time_point now) {
  ApplyResult result;
  const otlp::Dictionary& dict = request.dictionary();
  for (auto& rp : *request.mutable_resource_profiles()) {
    auto* attrs = rp.mutable_resource()->mutable_attributes();
    bool ran = false;
    DetectedList detected = attributesFor(resourcePid(*attrs, dict), now, &ran);
    if (ran) ++result.pid_detections;
    if (mergeIntoResource(detected, config_.override, dict, attrs)) ++result.changed_resources;
  }
  return result;
}

}  // namespace proflow::processors::resourcedetection
