// Factory of the `memory_limiter` processor.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::processors::memory_limiter {

// Type `memory_limiter`: refuses data (retryable) while the process RSS is above the soft limit.
std::unique_ptr<Factory> makeMemoryLimiterProcessorFactory();

}  // namespace proflow::processors::memory_limiter
