// Configuration of the `memory_limiter` processor (the Collector's keys and meaning).
#pragma once

#include <chrono>
#include <cstdint>

#include "core/config/config_reader.h"
#include "core/config/config_types.h"

namespace proflow::processors::memory_limiter {

struct MemoryLimiterConfig {
  uint64_t limit_mib = 0;
  uint64_t spike_limit_mib = 0;  // 0 = 20 % of limit_mib
  uint32_t limit_percentage = 0;
  uint32_t spike_limit_percentage = 0;  // 0 = 20 % of the limit
  config::Duration check_interval = std::chrono::seconds(1);
  config::Duration min_trim_interval_when_soft_limited = std::chrono::seconds(10);
  config::Duration min_trim_interval_when_hard_limited = std::chrono::seconds(0);

  template <class V>
  void visit(V& v) {
    v.field("limit_mib", limit_mib, "hard limit of the process RSS in MiB");
    v.field("spike_limit_mib", spike_limit_mib, "headroom below the hard limit; soft limit = limit - spike");
    v.field("limit_percentage", limit_percentage, "hard limit as % of the cgroup (or machine) memory");
    v.field("spike_limit_percentage", spike_limit_percentage, "spike as % of the cgroup (or machine) memory");
    v.field("check_interval", check_interval, "how often RSS is measured");
    v.field("min_trim_interval_when_soft_limited", min_trim_interval_when_soft_limited,
            "least time between returning freed memory to the OS while above the soft limit");
    v.field("min_trim_interval_when_hard_limited", min_trim_interval_when_hard_limited,
            "least time between returning freed memory to the OS while above the hard limit");
  }
  void validate(config::ValidationContext& ctx) const;
};

// Limits in bytes. soft = hard - spike.
struct Thresholds {
  uint64_t hard = 0;
  uint64_t soft = 0;
};

// `total_memory` is the cgroup limit or the machine's memory (used by the percentage keys).
Thresholds computeThresholds(const MemoryLimiterConfig& c, uint64_t total_memory);

}  // namespace proflow::processors::memory_limiter
