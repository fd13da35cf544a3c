#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::receivers::perf {

// Type `perf`: Linux perf recordings (perf.data, perf script text) over HTTP (POST /v1/perf) and
// from a directory.
std::unique_ptr<Factory> makePerfReceiverFactory();

}  // namespace proflow::receivers::perf
