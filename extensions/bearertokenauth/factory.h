// Factory of the `bearertokenauth` extension.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::extensions::bearertokenauth {

std::unique_ptr<Factory> makeBearerTokenAuthExtensionFactory();

}  // namespace proflow::extensions::bearertokenauth
