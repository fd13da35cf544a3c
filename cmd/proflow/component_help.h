// Help text of one component type: its options as its config struct declares them.
#pragma once

#include <string>

#include "core/component/factory.h"

namespace proflow {

// "<kind> <type>: <description>" followed by every option: key (type, default) and its help text.
std::string describeComponent(const Factory& factory);

}  // namespace proflow
