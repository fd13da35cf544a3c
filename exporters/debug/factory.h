// Factory of the `debug` exporter.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::exporters::debug {

// Type `debug`: logs a summary of each batch (basic / normal / detailed).
std::unique_ptr<Factory> makeDebugExporterFactory();

}  // namespace proflow::exporters::debug
