// Factory of the `file` exporter (registered in cmd/proflow/builtins.cc).
#pragma once

#include <memory>

#include "core/factory.h"

namespace proflow {

std::unique_ptr<proflow::Factory> makeFileExporterFactory();

}  // namespace proflow
