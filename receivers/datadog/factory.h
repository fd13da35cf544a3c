#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::receivers::datadog {

// Type `datadog`: the Datadog Agent's profiling intake (`POST /profiling/v1/input`) and `GET /info` on
// 8126, optionally forwarding everything to a real Agent.
std::unique_ptr<Factory> makeDatadogReceiverFactory();

}  // namespace proflow::receivers::datadog
