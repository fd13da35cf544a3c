// Factory of the `batch` processor.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::processors::batch {

// Type `batch`: merges batches into requests with one dictionary; size, max size, timeout.
std::unique_ptr<Factory> makeBatchProcessorFactory();

}  // namespace proflow::processors::batch
