#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::exporters::otlp {

// Type `otlp`: OTLP profiles over gRPC, on the exporter helper (queue, retry, timeout).
std::unique_ptr<Factory> makeOtlpExporterFactory();

}  // namespace proflow::exporters::otlp
