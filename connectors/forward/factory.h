// Factory of the `forward` connector (registered in cmd/proflow/builtins.cc).
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::connectors::forward {

// Type `forward`: every batch a pipeline exports to it goes on to every pipeline receiving from it.
std::unique_ptr<Factory> makeForwardConnectorFactory();

}  // namespace proflow::connectors::forward
