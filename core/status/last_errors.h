// The last warning or error each component logged, for the status page. Components log through
// loggers named "<kind>/<id>" (core/graph/pipeline_graph.cc clones the default logger), so one
// spdlog sink on the default logger sees every component's lines without any change to them.
// Process-wide; bounded to 1024 logger names.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace proflow::status {

struct LastError {
  std::string message;
  std::chrono::system_clock::time_point at;
};

// Adds the recording sink to the default logger (once per logger object; call before components
// clone it).
void installLastErrorSink();

// The last warning or error logged by "<kind>/<id>", e.g. ("exporter", "otlp/backend").
std::optional<LastError> lastError(const std::string& kind, const std::string& id);

}  // namespace proflow::status
