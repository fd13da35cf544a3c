// Factory of the `basicauth` extension (registered in cmd/proflow/builtins.cc).
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::extensions::basicauth {

std::unique_ptr<Factory> makeBasicAuthExtensionFactory();

}  // namespace proflow::extensions::basicauth
