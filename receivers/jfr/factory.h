#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::receivers::jfr {

// Type `jfr`: Java Flight Recorder recordings over HTTP (POST /v1/jfr) and from a directory.
std::unique_ptr<Factory> makeJfrReceiverFactory();

}  // namespace proflow::receivers::jfr
