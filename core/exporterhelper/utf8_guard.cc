#include "core/exporterhelper/utf8_guard.h"

#include <string>

#include "core/flat/flat_utf8.h"
#include "core/telemetry/component_telemetry.h"

namespace proflow::exporterhelper {

Utf8Guard::Utf8Guard(const CreateSettings& settings) : logger_(settings.logger) {
  if (settings.telemetry)
    repaired_ = &settings.telemetry->counter("invalid_utf8_repaired_total",
                                             "strings that were not valid UTF-8, repaired before sending");
}

const flat::Batch& Utf8Guard::sendable(const flat::Batch& b, flat::Batch* scratch) {
  size_t repaired = 0;
  const flat::Batch& out = flat::withValidUtf8(b, scratch, &repaired);
  if (repaired == 0) return out;
  if (repaired_) repaired_->add(repaired);
  if (logger_)
    throttle_.log(*logger_, spdlog::level::warn, "invalid_utf8",
                  std::to_string(repaired) + " string(s) of a batch were not valid UTF-8 and were repaired "
                  "(U+FFFD for each bad byte) before sending: the peer would refuse the whole request");
  return out;
}

}  // namespace proflow::exporterhelper
