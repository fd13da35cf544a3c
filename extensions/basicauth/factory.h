// Factory of the `basicauth` extension.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::extensions::basicauth {

std::unique_ptr<Factory> makeBasicAuthExtensionFactory();

}  // namespace proflow::extensions::basicauth
