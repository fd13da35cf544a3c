#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::exporters::nats {

// Type `nats`: OTLP profiles into a NATS JetStream stream, on the exporter helper.
std::unique_ptr<Factory> makeNatsExporterFactory();

}  // namespace proflow::exporters::nats
