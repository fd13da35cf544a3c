// The `debug` exporter: logs a summary of every batch through the component's logger. It never
// refuses data, so it can sit next to real exporters without affecting them.
#pragma once

#include "core/component/factory.h"
#include "exporters/debug/config.h"

namespace proflow::exporters::debug {

class DebugExporter final : public Exporter {
 public:
  DebugExporter(const CreateSettings& settings, const DebugExporterConfig& config);

  Status start(Host&) override { return Status::ok(); }
  void shutdown(Deadline) override {}
  Status consume(Batch batch) override;

 private:
  CreateSettings settings_;
  Verbosity verbosity_;
  size_t top_stacks_;
};

}  // namespace proflow::exporters::debug
