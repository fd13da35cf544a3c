// Factory of the `file` exporter.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::exporters::file {

// Type `file`: appends batches to a local file (otlp_json lines or size-prefixed otlp_proto), rotation;
// or pprof files, one per profile group.
std::unique_ptr<Factory> makeFileExporterFactory();

}  // namespace proflow::exporters::file
