#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::exporters::parca {

// Type `parca`: profiles to a Parca server (gRPC WriteRaw), on the exporter helper.
std::unique_ptr<Factory> makeParcaExporterFactory();

}  // namespace proflow::exporters::parca
