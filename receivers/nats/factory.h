#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::receivers::nats {

// Type `nats`: OTLP profiles from a NATS JetStream durable pull consumer (at least once).
std::unique_ptr<Factory> makeNatsReceiverFactory();

}  // namespace proflow::receivers::nats
