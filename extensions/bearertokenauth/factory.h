// Factory of the `bearertokenauth` extension (registered in cmd/proflow/builtins.cc).
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::extensions::bearertokenauth {

std::unique_ptr<Factory> makeBearerTokenAuthExtensionFactory();

}  // namespace proflow::extensions::bearertokenauth
