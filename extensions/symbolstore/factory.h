// Factory of the `symbolstore` extension (registered in cmd/proflow/builtins.cc).
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::extensions::symbolstore {

std::unique_ptr<Factory> makeSymbolStoreExtensionFactory();

}  // namespace proflow::extensions::symbolstore
