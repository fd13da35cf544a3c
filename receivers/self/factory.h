#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::receivers::self {

// Type `self`: the daemon's own CPU profile (every thread), sampled in-process with perf events or
// CPU-time timers, one batch per interval.
std::unique_ptr<Factory> makeSelfReceiverFactory();

}  // namespace proflow::receivers::self
