// What a detector finds: an ordered list of resource attributes (the first entry of a key wins when
// lists are merged, as in the Collector where the first detector listed wins).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/otlp_types.h"

namespace proflow::processors::resourcedetection {

struct Detected {
  std::string key;
  otlp::AnyValue value;
};
using DetectedList = std::vector<Detected>;

inline otlp::AnyValue stringValue(std::string_view s) {
  otlp::AnyValue v;
  v.set_string_value(std::string(s));
  return v;
}

inline otlp::AnyValue intValue(int64_t i) {
  otlp::AnyValue v;
  v.set_int_value(i);
  return v;
}

// Appends key=value unless the list already has `key` or `value` is empty.
inline void addString(DetectedList& out, std::string_view key, std::string_view value) {
  if (value.empty()) return;
  for (const auto& d : out)
    if (d.key == key) return;
  out.push_back({std::string(key), stringValue(value)});
}

// Appends every entry of `from` whose key `into` does not have yet.
inline void mergeMissing(DetectedList& into, const DetectedList& from) {
  for (const auto& d : from) {
    bool present = false;
    for (const auto& e : into) present = present || e.key == d.key;
    if (!present) into.push_back(d);
  }
}

}  // namespace proflow::processors::resourcedetection
