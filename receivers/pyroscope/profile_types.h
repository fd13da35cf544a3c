// Pyroscope's profile-type vocabulary: the type a legacy (folded/lines) upload gets from the last
// `.suffix` of its application name, the metric family (`__name__`) of a pprof sample type, and the
// `units` words of sample_type_config.
#pragma once

#include <string>
#include <string_view>

#include "core/util/status.h"

namespace proflow::receivers::pyroscope {

struct LegacyType {
  std::string_view metric;       // Pyroscope family: process_cpu, wall, memory, mutex, ...
  std::string_view sample_type;  // pprof/OTLP sample type
  std::string_view unit;
  std::string_view period_type;
  std::string_view period_unit;
  bool scale_by_rate = false;  // values are sample counts: multiply by 1e9/sampleRate ns
};

// Type of a folded/lines upload. The last `.suffix` of `app_name` selects it (none or `cpu` -> CPU);
// without a suffix, `units=objects|bytes` selects memory. An unknown suffix is an error
// ("unknown profile type", as Pyroscope answers). `service_name` is the name without the suffix.
Status legacyTypeFor(std::string_view app_name, std::string_view units, LegacyType* out, std::string* service_name);

// sample_type_config `units` word -> pprof unit: samples/objects/lock_samples/goroutines -> count,
// bytes -> bytes, lock_nanoseconds -> nanoseconds; anything else unchanged.
std::string_view pprofUnitFor(std::string_view pyroscope_units);

}  // namespace proflow::receivers::pyroscope
