#include "processors/resourcedetection/env_detector.h"

#include <cstdlib>

namespace proflow::processors::resourcedetection {
namespace {

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<std::string> percentDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    int hi = hexDigit(s[i + 1]);
    int lo = hexDigit(s[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

std::optional<DetectedList> parseResourceAttributes(std::string_view text, std::string* error) {
  DetectedList out;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view member = trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (member.empty()) continue;
    size_t eq = member.find('=');
    if (eq == std::string_view::npos || trim(member.substr(0, eq)).empty()) {
      if (error) *error = "member '" + std::string(member) + "' is not key=value";
      return std::nullopt;
    }
    auto key = percentDecode(trim(member.substr(0, eq)));
    auto value = percentDecode(trim(member.substr(eq + 1)));
    if (!key || !value) {
      if (error) *error = "member '" + std::string(member) + "' has an invalid percent escape";
      return std::nullopt;
    }
    // A later duplicate replaces the earlier one, as SDKs do when building the resource.
    bool replaced = false;
    for (auto& d : out)
      if (d.key == *key) {
        d.value = stringValue(*value);
        replaced = true;
      }
    if (!replaced) out.push_back({*key, stringValue(*value)});
  }
  return out;
}

DetectedList detectEnv(std::string* error) {
  DetectedList out;
  if (const char* name = std::getenv("OTEL_SERVICE_NAME"); name && *name) addString(out, "service.name", name);
  if (const char* attrs = std::getenv("OTEL_RESOURCE_ATTRIBUTES"); attrs && *attrs) {
    std::string why;
    if (auto parsed = parseResourceAttributes(attrs, &why)) mergeMissing(out, *parsed);
    else if (error) *error = "OTEL_RESOURCE_ATTRIBUTES ignored: " + why;
  }
  return out;
}

}  // namespace proflow::processors::resourcedetection
