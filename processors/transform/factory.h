// Factory of the `transform` processor (OTTL statements over profiles).
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::processors::transform {

std::unique_ptr<Factory> makeTransformProcessorFactory();

}  // namespace proflow::processors::transform
