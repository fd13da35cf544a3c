// Every component type compiled into this binary, registered in one place.
#pragma once

#include "core/component/registry.h"

namespace proflow {

// Registers all built-in factories. Fails on a duplicate type name.
Status registerBuiltins(Registry& registry);

}  // namespace proflow
