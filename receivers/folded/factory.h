#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::receivers::folded {

// Type `folded`: folded ("collapsed") stack text over HTTP (POST /v1/folded).
std::unique_ptr<Factory> makeFoldedReceiverFactory();

}  // namespace proflow::receivers::folded
