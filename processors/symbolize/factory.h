// Factory of the `symbolize` processor, registered by cmd/proflow/builtins.cc.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow {

std::unique_ptr<Factory> makeSymbolizeProcessorFactory();

}  // namespace proflow
