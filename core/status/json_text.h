// Writing JSON by hand for the status API: string escaping and number formatting.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

namespace proflow::status {

// Appends `s` as a JSON string (quotes included). Control characters are escaped; bytes that are
// not valid UTF-8 become U+FFFD so the answer always parses.
void appendJsonString(std::string& out, std::string_view s);

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
