#include "cmd/proflow/component_help.h"

namespace proflow {

std::string describeComponent(const Factory& factory) {
  std::string out = std::string(componentKindName(factory.kind())) + " " + std::string(factory.type()) + ": " +
                    std::string(factory.description()) + "\n";
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

}  // namespace proflow
