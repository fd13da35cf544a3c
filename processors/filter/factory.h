// Factory of the `filter` processor.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::processors::filter {

// Type `filter`: drop profiles/samples by attributes, drop/keep frames by RE2 regex (pprof semantics).
std::unique_ptr<Factory> makeFilterProcessorFactory();

}  // namespace proflow::processors::filter
