#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::exporters::pyroscope {

// Type `pyroscope`: profiles to a Pyroscope server (push API by default, or /ingest).
std::unique_ptr<Factory> makePyroscopeExporterFactory();

}  // namespace proflow::exporters::pyroscope
