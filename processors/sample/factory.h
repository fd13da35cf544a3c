// Factory of the `sample` processor.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::processors::sample {

// Type `sample`: probabilistic, rate_limit and downsample modes with keep_linked / keep_unique_by.
std::unique_ptr<Factory> makeSampleProcessorFactory();

}  // namespace proflow::processors::sample
