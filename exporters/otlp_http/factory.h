#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::exporters::otlphttp {

// Type `otlphttp`: OTLP profiles over HTTP (protobuf or JSON; gzip, zstd), on the exporter helper.
std::unique_ptr<Factory> makeOtlpHttpExporterFactory();

}  // namespace proflow::exporters::otlphttp
