// The detection logic without the pipeline around it: runs the configured detectors and merges what
// they found into the resources of a request.
//
// Resource attributes may arrive inline or reference-based (key_strindex / string_value_strindex
// into the request's string table); both are read. Added or overridden entries are written inline,
// so the shared string table is never edited and other resources keep their references.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/otlp_types.h"
#include "processors/resourcedetection/config.h"
#include "processors/resourcedetection/detected.h"
#include "processors/resourcedetection/pid_cache.h"

namespace proflow::processors::resourcedetection {

// process.pid of a resource (int, or a decimal string inline or by reference); nullopt when absent.
std::optional<int64_t> resourcePid(const google::protobuf::RepeatedPtrField<otlp::KeyValue>& attrs,
                                   const otlp::Dictionary& dict);

// Adds `detected` entries missing from `attrs`; with `override`, also replaces entries whose value
// differs. True when anything changed.
bool mergeIntoResource(const DetectedList& detected, bool override, const otlp::Dictionary& dict,
                       google::protobuf::RepeatedPtrField<otlp::KeyValue>* attrs);

class ResourceDetector {
 public:
  explicit ResourceDetector(const ResourceDetectionConfig& config);

  // Runs the pid-independent detection (env, system, k8s, the daemon's own container) once.
  // Returns problems worth a warning (a malformed OTEL_RESOURCE_ATTRIBUTES, ...).
  std::vector<std::string> detectStatic();

  struct ApplyResult {
    size_t changed_resources = 0;
    size_t pid_detections = 0;  // pid cache misses
  };

  // Enriches every resource of `request`.
  ApplyResult apply(otlp::Request& request, PidCache::Clock::time_point now = PidCache::Clock::now());

  // What a resource with `pid` (or none) gets, merged in detector order. `*detected` is set to true
  // when the pid was not cached and detection ran.
  DetectedList attributesFor(std::optional<int64_t> pid, PidCache::Clock::time_point now, bool* detected = nullptr);

  const PidCache& cache() const { return cache_; }

 private:
  enum class Kind { kEnv, kSystem, kProcess, kContainer, kK8s };

  std::vector<DetectedList> detectPid(int64_t pid) const;

  ResourceDetectionConfig config_;
  std::vector<Kind> kinds_;                // in configured order
  std::vector<DetectedList> static_;       // per detector; for resources without a pid too
  PidCache cache_;
};

}  // namespace proflow::processors::resourcedetection
