// Factory of the `symbolstore` extension.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::extensions::symbolstore {

std::unique_ptr<Factory> makeSymbolStoreExtensionFactory();

}  // namespace proflow::extensions::symbolstore
