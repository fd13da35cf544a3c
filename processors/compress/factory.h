// Factory of the `compress` processor.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::processors::compress {

// Type `compress`: lossless compaction (merge, zero drop, dictionary rebuild) + opt-in lossy pruning.
std::unique_ptr<Factory> makeCompressProcessorFactory();

}  // namespace proflow::processors::compress
