#include "processors/memory_limiter/config.h"

#include <string>

namespace proflow::processors::memory_limiter {

void MemoryLimiterConfig::validate(config::ValidationContext& ctx) const {
  if (check_interval.value <= std::chrono::nanoseconds::zero())
    ctx.error("check_interval", "check_interval must be > 0 (1s is a good start)");
  if ((limit_mib == 0) == (limit_percentage == 0))
    ctx.error(limit_mib == 0 ? "limit_mib" : "limit_percentage",
              "set exactly one of limit_mib or limit_percentage");
  if (limit_mib != 0) {
    if (spike_limit_percentage != 0)
      ctx.error("spike_limit_percentage", "spike_limit_percentage goes with limit_percentage; use spike_limit_mib");
    if (spike_limit_mib >= limit_mib)
      ctx.error("spike_limit_mib", "spike_limit_mib (" + std::to_string(spike_limit_mib) +
                                       ") must be below limit_mib (" + std::to_string(limit_mib) + ")");
  }
  if (limit_percentage != 0) {
    if (limit_percentage > 100)
      ctx.error("limit_percentage", "limit_percentage must be 1..100, got " + std::to_string(limit_percentage));
    if (spike_limit_mib != 0)
      ctx.error("spike_limit_mib", "spike_limit_mib goes with limit_mib; use spike_limit_percentage");
    if (spike_limit_percentage >= limit_percentage)
      ctx.error("spike_limit_percentage", "spike_limit_percentage (" + std::to_string(spike_limit_percentage) +
                                              ") must be below limit_percentage (" +
                                              std::to_string(limit_percentage) + ")");
  }
}

Thresholds computeThresholds(const MemoryLimiterConfig& c, uint64_t total_memory) {
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  Thresholds t;
  uint64_t spike = 0;
  if (c.limit_mib != 0) {
    t.hard = c.limit_mib * kMiB;
    spike = c.spike_limit_mib != 0 ? c.spike_limit_mib * kMiB : t.hard / 5;
  } else {
    t.hard = total_memory / 100 * c.limit_percentage;
    spike = c.spike_limit_percentage != 0 ? total_memory / 100 * c.spike_limit_percentage : t.hard / 5;
  }
  t.soft = spike < t.hard ? t.hard - spike : 0;
  return t;
}

}  // namespace proflow::processors::memory_limiter
