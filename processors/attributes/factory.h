// Factory of the `attributes` processor.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::processors::attributes {

// Type `attributes`: edits sample attributes (insert, update, upsert, delete, hash, extract,
// convert), optionally only for some sample types or services.
std::unique_ptr<Factory> makeAttributesProcessorFactory();

}  // namespace proflow::processors::attributes
