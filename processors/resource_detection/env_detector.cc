#include "processors/resource_detection/env_detector.h"

#include <cstdlib>

#include "core/util/ascii.h"
#include "core/util/percent_encoding.h"

namespace proflow::processors::resourcedetection {
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
