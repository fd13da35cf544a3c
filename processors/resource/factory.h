// Factory of the `resource` processor.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::processors::resource {

// Type `resource`: insert, update, upsert, delete, hash, extract and convert resource attributes.
std::unique_ptr<Factory> makeResourceProcessorFactory();

}  // namespace proflow::processors::resource
