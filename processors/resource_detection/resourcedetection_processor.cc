#include "processors/resource_detection/resourcedetection_processor.h"

#include <spdlog/spdlog.h>

namespace proflow::processors::resourcedetection {

ResourceDetectionProcessor::ResourceDetectionProcessor(const CreateSettings& settings,
                                                       const ResourceDetectionConfig& config, ConsumerPtr next)
    : logger_(settings.logger),
      detector_(config),
      ignores_pids_(!config.trust_pids && (config.has("process") || config.has("container"))),
      next_(std::move(next)) {
  if (settings.telemetry) {
    changed_ = &settings.telemetry->counter("resourcedetection_changed_resources_total",
                                            "Resources that got detected attributes");
    pid_lookups_ = &settings.telemetry->counter("resourcedetection_pid_detections_total",
                                                "Process/container detections run (pid cache misses)");
  }
}

Status ResourceDetectionProcessor::start(Host&) {
  for (const auto& problem : detector_.detectStatic())
    if (logger_) logger_->warn("resourcedetection: {}", problem);
  if (ignores_pids_ && logger_)
    logger_->info("resourcedetection: trust_pids is false, so resources naming a process.pid get no process or "
                  "container attributes; set it on a pipeline whose receivers only a trusted profiler reaches");
  return Status::ok();
}

Status ResourceDetectionProcessor::consume(Batch batch) {
  auto result = detector_.apply(batch.mutableData());
  if (changed_ && result.changed_resources > 0) changed_->add(result.changed_resources);
  if (pid_lookups_ && result.pid_detections > 0) pid_lookups_->add(result.pid_detections);
  return next_->consume(std::move(batch));
}

}  // namespace proflow::processors::resourcedetection
