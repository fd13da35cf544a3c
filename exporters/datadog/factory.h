#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::exporters::datadog {

// Type `datadog`: profiles to Datadog's profiling intake (via the Agent or agentless).
std::unique_ptr<Factory> makeDatadogExporterFactory();

}  // namespace proflow::exporters::datadog
