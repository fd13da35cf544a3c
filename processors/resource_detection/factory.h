// Factory of the `resourcedetection` processor.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::processors::resourcedetection {

// Type `resourcedetection`: env, system, process, container and k8s resource attributes.
std::unique_ptr<Factory> makeResourceDetectionProcessorFactory();

}  // namespace proflow::processors::resourcedetection
