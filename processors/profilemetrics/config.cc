#include "processors/profilemetrics/config.h"

#include <string>

namespace proflow::processors::profilemetrics {

void ProfileMetricsConfig::validate(config::ValidationContext& ctx) const {
  if (top_n > 1000) ctx.error("top_n", "top_n must be within 0..1000, got " + std::to_string(top_n));
  if (window.value <= std::chrono::nanoseconds::zero())
    ctx.error("window", "window must be > 0 (the scrape interval or a minute is a good start)");
  if (max_series == 0) ctx.error("max_series", "max_series must be >= 1");
  if (max_tracked_functions < top_n)
    ctx.error("max_tracked_functions", "max_tracked_functions (" + std::to_string(max_tracked_functions) +
                                           ") must be >= top_n (" + std::to_string(top_n) + ")");
  if (max_label_length < 16 || max_label_length > 1024)
    ctx.error("max_label_length", "max_label_length must be within 16..1024, got " + std::to_string(max_label_length));
  if (idle_timeout.value < std::chrono::nanoseconds::zero() ||
      (idle_timeout.value > std::chrono::nanoseconds::zero() && idle_timeout.value < window.value))
    ctx.error("idle_timeout", "idle_timeout must be 0 (never) or at least window");
}

}  // namespace proflow::processors::profilemetrics
