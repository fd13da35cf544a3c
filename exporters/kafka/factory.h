#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::exporters::kafka {

// Type `kafka`: OTLP profiles into a Kafka topic, on the exporter helper.
std::unique_ptr<Factory> makeKafkaExporterFactory();

}  // namespace proflow::exporters::kafka
