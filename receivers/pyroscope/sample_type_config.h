// The optional `sample_type_config` part of pyroscope-go uploads: JSON
// `{"<sample type>": {"units", "display-name", "aggregation", "cumulative", "sampled"}}`.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "core/util/status.h"

namespace proflow::receivers::pyroscope {

struct SampleTypeSettings {
  std::string units;         // Pyroscope units word (objects, bytes, lock_nanoseconds, ...)
  std::string display_name;  // name Pyroscope shows (and derives the metric family from)
  std::string aggregation;   // "sum" (default) or "average"
  bool cumulative = false;   // values since process start, not a delta
};

using SampleTypeConfig = std::map<std::string, SampleTypeSettings, std::less<>>;

// Unknown keys are ignored (forward compatible); a value of the wrong JSON type is an error.
Status parseSampleTypeConfig(std::string_view json, SampleTypeConfig* out);

}  // namespace proflow::receivers::pyroscope
