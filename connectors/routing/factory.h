// Factory of the `routing` connector (registered in cmd/proflow/builtins.cc).
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::connectors::routing {

// Type `routing`: each resource to the pipelines of the first route whose OTTL condition it matches.
std::unique_ptr<Factory> makeRoutingConnectorFactory();

}  // namespace proflow::connectors::routing
