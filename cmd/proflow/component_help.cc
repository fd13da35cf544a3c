#include "cmd/proflow/component_help.h"

namespace proflow {

std::string describeComponent(const Factory& factory, const ComponentMetadata& metadata) {
  std::string out = std::string(componentKindName(factory.kind())) + " " + metadata.type + ": " +
                    metadata.description + "\n";
  out += "  stability: " + stabilitySummary(metadata) + "\n";
  if (!metadata.deprecated_aliases.empty()) {
    out += "  deprecated aliases:";
    for (const auto& a : metadata.deprecated_aliases) out += " " + a;
    out += "\n";
  }
  if (!metadata.trust_accepts.empty()) out += "  accepts: " + metadata.trust_accepts + "\n";
  if (!metadata.trust_exposes.empty()) out += "  exposes: " + metadata.trust_exposes + "\n";
  auto options = factory.createDefaultConfig()->options();
  if (options.empty()) return out + "\n  (no options)\n";
  out += "\nOptions (YAML key, type, default):\n";
  for (const auto& o : options) {
    out += "  " + o.key + " (" + o.type;
    if (!o.default_value.empty()) out += ", default " + o.default_value;
    out += ")\n";
    if (!o.help.empty()) out += "      " + o.help + "\n";
  }
  return out;
}

std::string componentStatusTable(const ComponentMetadata& metadata) {
  std::string out = "| Status | |\n|---|---|\n";
  out += "| Type | `" + metadata.type + "` (" + componentKindName(metadata.kind) + ") |\n";
  for (const auto& [level, signals] : metadata.stability) {
    std::string list;
    for (const auto& s : signals) list += (list.empty() ? "" : ", ") + s;
    out += "| Stability | " + level + ": " + list + " |\n";
  }
  if (!metadata.deprecated_aliases.empty()) {
    std::string list;
    for (const auto& a : metadata.deprecated_aliases) list += (list.empty() ? "`" : ", `") + a + "`";
    out += "| Deprecated aliases | " + list + " |\n";
  }
  out += "| Accepts | " + metadata.trust_accepts + " |\n";
  out += "| Exposes | " + metadata.trust_exposes + " |\n";
  return out;
}

}  // namespace proflow
