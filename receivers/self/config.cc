#include "receivers/self/config.h"

#include <chrono>

namespace proflow::receivers::self {

void SelfReceiverConfig::validate(config::ValidationContext& ctx) const {
  using namespace std::chrono_literals;
  if (interval.value < 1s || interval.value > 1h) ctx.error("interval", "must be between 1s and 1h, got " + interval.str());
  if (frequency < 1 || frequency > 1000)
    ctx.error("frequency", "must be between 1 and 1000 (Hz), got " + std::to_string(frequency));
  if (mode != "auto" && mode != "perf_event" && mode != "timer")
    ctx.error("mode", "must be one of auto, perf_event, timer; got '" + mode + "'");
  if (max_stack_depth < 1 || max_stack_depth > 1024)
    ctx.error("max_stack_depth", "must be between 1 and 1024, got " + std::to_string(max_stack_depth));
  if (thread_scan_interval.value < 100ms || thread_scan_interval.value > 1min)
    ctx.error("thread_scan_interval", "must be between 100ms and 1m, got " + thread_scan_interval.str());
  if (attributes.count("service.name") && attributes.at("service.name").empty())
    ctx.error("attributes", "service.name must not be empty");
}

}  // namespace proflow::receivers::self
