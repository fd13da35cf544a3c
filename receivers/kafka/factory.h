#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::receivers::kafka {

// Type `kafka`: OTLP profiles from a Kafka consumer group (at least once).
std::unique_ptr<Factory> makeKafkaReceiverFactory();

}  // namespace proflow::receivers::kafka
