#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::testing::example {

// Type `example`: counts the profiles it receives (tests/support/components/example/README.md).
std::unique_ptr<Factory> makeExampleExporterFactory();

}  // namespace proflow::testing::example
