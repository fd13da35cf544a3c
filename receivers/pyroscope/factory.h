#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::receivers::pyroscope {

// Type `pyroscope`: Pyroscope-compatible `POST /ingest` (pprof, multipart pprof, folded text) on 4040.
std::unique_ptr<Factory> makePyroscopeReceiverFactory();

}  // namespace proflow::receivers::pyroscope
