#include "core/config/config_types.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "core/util/ascii.h"

namespace proflow::config {

std::optional<Duration> parseDuration(std::string_view s) {
  if (s == "0") return Duration{};
  if (s.empty()) return std::nullopt;
  double total_ns = 0;
  size_t i = 0;
  while (i < s.size()) {
    size_t start = i;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
    if (i == start) return std::nullopt;
    double number = std::strtod(std::string(s.substr(start, i - start)).c_str(), nullptr);
    size_t unit_start = i;
    while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
    std::string_view unit = s.substr(unit_start, i - unit_start);
    double scale;
    if (unit == "ns") scale = 1;
    else if (unit == "us" || unit == "µs") scale = 1e3;
    else if (unit == "ms") scale = 1e6;
    else if (unit == "s") scale = 1e9;
    else if (unit == "m") scale = 60e9;
    else if (unit == "h") scale = 3600e9;
    else return std::nullopt;
    total_ns += number * scale;
  }
  if (!std::isfinite(total_ns) || total_ns > 9.2e18) return std::nullopt;
  return Duration{std::chrono::nanoseconds(static_cast<int64_t>(total_ns))};
}

std::string Duration::str() const {
  auto ns = value.count();
  if (ns == 0) return "0s";
  if (ns % 1000000000 == 0) return std::to_string(ns / 1000000000) + "s";
  if (ns % 1000000 == 0) return std::to_string(ns / 1000000) + "ms";
  if (ns % 1000 == 0) return std::to_string(ns / 1000) + "us";
  return std::to_string(ns) + "ns";
}

std::optional<ByteSize> parseByteSize(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i == 0 || i > 19) return std::nullopt;
  uint64_t n = std::strtoull(std::string(s.substr(0, i)).c_str(), nullptr, 10);
  const std::string unit = toLowerAscii(s.substr(i));
  uint64_t mul;
  if (unit.empty() || unit == "b") mul = 1;
  else if (unit == "kib" || unit == "ki") mul = 1ull << 10;
  else if (unit == "mib" || unit == "mi") mul = 1ull << 20;
  else if (unit == "gib" || unit == "gi") mul = 1ull << 30;
  else if (unit == "kb" || unit == "k") mul = 1000;
  else if (unit == "mb" || unit == "m") mul = 1000 * 1000;
  else if (unit == "gb" || unit == "g") mul = 1000ull * 1000 * 1000;
  else return std::nullopt;
  if (n > UINT64_MAX / mul) return std::nullopt;
  return ByteSize{n * mul};
}

std::string ByteSize::str() const {
  if (bytes != 0 && bytes % (1ull << 30) == 0) return std::to_string(bytes >> 30) + "GiB";
  if (bytes != 0 && bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + "MiB";
  if (bytes != 0 && bytes % (1ull << 10) == 0) return std::to_string(bytes >> 10) + "KiB";
  return std::to_string(bytes) + "B";
}

}  // namespace proflow::config
