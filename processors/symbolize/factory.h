// Factory of the `symbolize` processor.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow {

std::unique_ptr<Factory> makeSymbolizeProcessorFactory();

}  // namespace proflow
