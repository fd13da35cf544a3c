#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::receivers::otlp {

// Type `otlp`: OTLP profiles over gRPC (4317) and HTTP (4318).
std::unique_ptr<Factory> makeOtlpReceiverFactory();

}  // namespace proflow::receivers::otlp
