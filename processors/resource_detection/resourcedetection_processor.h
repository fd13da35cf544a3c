// The `resourcedetection` processor: adds where-and-who attributes (host, process, container, pod)
// to every resource passing through. Pid-independent detectors run once at start(); the process and
// container detectors run per distinct process.pid, only when the pipeline trusts its senders to
// name processes (trust_pids), and are cached (see PidCache).
#pragma once

#include <memory>

#include "core/component/factory.h"
#include "processors/resource_detection/config.h"
#include "processors/resource_detection/resource_detector.h"

namespace proflow::processors::resourcedetection {

class ResourceDetectionProcessor final : public Processor {
 public:
  ResourceDetectionProcessor(const CreateSettings& settings, const ResourceDetectionConfig& config, ConsumerPtr next);

  Capabilities capabilities() const override { return {.mutates_data = true}; }
  Status start(Host& host) override;
  void shutdown(Deadline) override {}
  Status consume(Batch batch) override;

 private:
  std::shared_ptr<spdlog::logger> logger_;
  ResourceDetector detector_;
  bool ignores_pids_ = false;  // process/container detectors configured, trust_pids false
  ConsumerPtr next_;
  telemetry::Counter* changed_ = nullptr;
  telemetry::Counter* pid_lookups_ = nullptr;
};

}  // namespace proflow::processors::resourcedetection
