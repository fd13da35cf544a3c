// Configuration of the `profilemetrics` processor.
#pragma once

#include <chrono>
#include <cstdint>

#include "core/config/config_reader.h"
#include "core/config/config_types.h"

namespace proflow::processors::profilemetrics {

struct ProfileMetricsConfig {
  uint32_t top_n = 10;
  config::Duration window = std::chrono::minutes(1);
  uint64_t max_series = 2000;
  uint64_t max_tracked_functions = 20000;
  uint32_t max_label_length = 128;
  config::Duration idle_timeout = std::chrono::hours(1);

  template <class V>
  void visit(V& v) {
    v.field("top_n", top_n, "functions per service and sample type with a series, by self and by inclusive value (0: none)");
    v.field("window", window, "top N is recomputed at the end of each window, from what it saw");
    v.field("max_series", max_series, "series this processor exposes at most; more are dropped and counted");
    v.field("max_tracked_functions", max_tracked_functions,
            "distinct functions followed within a window at most (memory bound)");
    v.field("max_label_length", max_label_length, "service_name and function label values are cut to this many bytes");
    v.field("idle_timeout", idle_timeout, "a service and sample type without samples this long loses its series (0: never)");
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::processors::profilemetrics
