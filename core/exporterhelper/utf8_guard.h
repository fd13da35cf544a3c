// The OTLP senders' last check before they encode a batch (core/flat/flat_utf8.h). A string that is
// not UTF-8 makes the peer refuse the whole request, and every retry of it: such strings are repaired
// (U+FFFD for each bad byte) rather than the batch dropped, so one bad label does not cost every
// profile sent with it. Each repaired string is counted in
// proflow_exporter_invalid_utf8_repaired_total and logged (rate-limited).
#pragma once

#include <cstddef>
#include <memory>

#include "core/component/factory.h"
#include "core/flat/flat_batch.h"
#include "core/telemetry/log_throttle.h"
#include "core/telemetry/metrics.h"

namespace proflow::exporterhelper {

class Utf8Guard {
 public:
  explicit Utf8Guard(const CreateSettings& settings);
  // `b` when it can be sent as it is, else its repaired copy in `*scratch`.
  const flat::Batch& sendable(const flat::Batch& b, flat::Batch* scratch);

 private:
  std::shared_ptr<spdlog::logger> logger_;
  telemetry::Counter* repaired_ = nullptr;
  telemetry::LogThrottle throttle_;
};

}  // namespace proflow::exporterhelper
