// Shared set-up of the file exporter tests: settings with real telemetry and a quiet logger.
#pragma once

#include <memory>
#include <string>

#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

#include "core/component/factory.h"
#include "core/telemetry/metrics.h"
#include "exporters/file/file_exporter.h"
#include "tests/support/stand_ins.h"

namespace proflow::exporters::file {

using ::proflow::testing::NullHost;

struct Harness {
  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry telemetry{registry, ComponentKind::kExporter, "file"};
  NullHost host;

  CreateSettings settings() {
    CreateSettings s;
    s.id = {"file", ""};
    s.kind = ComponentKind::kExporter;
    s.logger = std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::null_sink_mt>());
    s.telemetry = &telemetry;
    s.runtime = nullptr;
    return s;
  }

  std::unique_ptr<FileExporter> make(const FileExporterConfig& c) {
    return std::make_unique<FileExporter>(settings(), c, makeEncoder(c.format));
  }

  double metric(const std::string& name) { return registry.value(name, {{"exporter", "file"}}); }
};

}  // namespace proflow::exporters::file
