#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::exporters::loadbalancing {

// Type `loadbalancing`: routes profiles by service (or resource) to OTLP backends on a hash ring.
std::unique_ptr<Factory> makeLoadBalancingExporterFactory();

}  // namespace proflow::exporters::loadbalancing
