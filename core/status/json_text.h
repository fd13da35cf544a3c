// Numbers of the status API as it shows them (strings go through core/util/json/json_writer.h).
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

namespace proflow::status {

inline void appendJsonNumber(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char buf[32];
  if (v == std::floor(v) && std::fabs(v) < 9e15)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.6g", v);
  out += buf;
}

}  // namespace proflow::status
