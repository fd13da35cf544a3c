// Factory of the `profilemetrics` processor.
#pragma once

#include <memory>

#include "core/component/factory.h"

namespace proflow::processors::profilemetrics {

// Type `profilemetrics`: passes profiles on unchanged and exposes metrics derived from them
// (totals and top-N functions per service, with trace exemplars) on the telemetry endpoint.
std::unique_ptr<Factory> makeProfileMetricsProcessorFactory();

}  // namespace proflow::processors::profilemetrics
