#include "exporters/debug/debug_exporter.h"

#include "exporters/debug/summary.h"

namespace proflow::exporters::debug {

DebugExporter::DebugExporter(const CreateSettings& settings, const DebugExporterConfig& config)
    : settings_(settings), verbosity_(config.level()), top_stacks_(config.top_stacks) {}

Status DebugExporter::consume(Batch batch) {
  const flat::Batch& data = batch.data();
  if (settings_.logger) {
    settings_.logger->info("{}", batchLine(data));
    if (verbosity_ != Verbosity::kBasic) {
      const size_t top = verbosity_ == Verbosity::kDetailed ? top_stacks_ : 0;
      for (const auto& line : profileLines(data, top)) settings_.logger->info("{}", line);
    }
  }
  if (settings_.telemetry) settings_.telemetry->record(telemetry::Event::kSent, batch.counts());
  return Status::ok();
}

}  // namespace proflow::exporters::debug
