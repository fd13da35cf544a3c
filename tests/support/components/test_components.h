// The components that exist for tests, registered the way the binary registers its own: each folder
// under tests/support/components/ declares itself with proflow_component() and CMake writes this
// function's definition from those declarations.
#pragma once

#include "core/component/registry.h"

namespace proflow {

Status registerTestComponents(Registry& registry);

}  // namespace proflow
