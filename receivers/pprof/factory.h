#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::receivers::pprof {

// Type `pprof`: pprof pushed to POST /v1/pprof (4042) and scraped from /debug/pprof endpoints.
std::unique_ptr<Factory> makePprofReceiverFactory();

}  // namespace proflow::receivers::pprof
