// Names of the series the profilemetrics processor exposes, and bounded label values.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace proflow::processors::profilemetrics {

// How one sample type (type/unit, e.g. cpu/nanoseconds) is exposed: the stem of its families'
// names, with the unit in it as OpenMetrics and Prometheus name it (time in seconds, bytes in
// bytes, counts without a unit word), and the factor from the profile's values to that unit.
struct SampleTypeName {
  std::string stem;  // "cpu_seconds", "alloc_space_bytes", "samples"
  std::string unit;  // "seconds", "bytes", "" for counts
  double divisor = 1;  // profile value / divisor = value in `unit` (a division keeps 1.72e9 ns = 1.72 s exact)
};

SampleTypeName nameSampleType(std::string_view type, std::string_view unit);

// Family names: proflow_profile_<stem>_total (per service), proflow_profile_function_self_<stem>_total
// and proflow_profile_function_inclusive_<stem>_total (per service and function).
std::string totalFamily(const SampleTypeName& n);
std::string selfFamily(const SampleTypeName& n);
std::string inclusiveFamily(const SampleTypeName& n);

// `v` as a label value of at most `max_bytes` bytes: invalid UTF-8 bytes become '?', and a longer
// value is cut at a character boundary. `*truncated` is set when it was cut.
std::string capLabelValue(std::string_view v, size_t max_bytes, bool* truncated);

// Lower-case hex of `bytes`; "" when empty or all zero (an unset trace, span or profile id).
std::string idHex(std::string_view bytes);

}  // namespace proflow::processors::profilemetrics
