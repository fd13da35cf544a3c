// The detection logic without the pipeline around it: runs the configured detectors and merges what
// they found into the resources of a batch.
//
// Resource attributes may arrive inline or reference-based (key_strindex / string_value_strindex
// into the batch's string table); both are read. Added or overridden entries are written inline,
// so the shared string table is never edited and other resources keep their references.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/attributes/actions.h"
#include "core/flat/flat_batch.h"
#include "processors/resource_detection/config.h"
#include "processors/resource_detection/detected.h"
#include "processors/resource_detection/pid_cache.h"

namespace proflow::processors::resourcedetection {

// process.pid of a resource (int, or a decimal string); nullopt when absent.
std::optional<int64_t> resourcePid(const attributes::AttrList& attrs);

// Adds `detected` entries missing from `attrs`; with `override`, also replaces entries whose value
// differs (marked changed). True when anything changed.
bool mergeIntoResource(const DetectedList& detected, bool override, attributes::AttrList& attrs);

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

  // Enriches every resource of `batch`.
  ApplyResult apply(flat::Batch& batch, PidCache::Clock::time_point now = PidCache::Clock::now());

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
