// Every component type compiled into this binary. Each component folder declares itself in its
// CMakeLists.txt (proflow_component(), cmake/proflow_component.cmake); CMake writes the definition
// of registerBuiltins from those declarations, so adding a component touches its folder only.
#pragma once

#include "core/component/registry.h"

namespace proflow {

// Registers all built-in factories. Fails on a duplicate type name.
Status registerBuiltins(Registry& registry);

}  // namespace proflow
