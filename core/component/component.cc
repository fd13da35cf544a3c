#include "core/component/component.h"

#include <cctype>

namespace proflow {

const char* componentKindName(ComponentKind kind) {
  switch (kind) {
    case ComponentKind::kReceiver: return "receiver";
    case ComponentKind::kProcessor: return "processor";
    case ComponentKind::kExporter: return "exporter";
    case ComponentKind::kExtension: return "extension";
    case ComponentKind::kConnector: return "connector";
  }
  return "component";
}

std::optional<ComponentId> ComponentId::parse(std::string_view text) {
  auto valid = [](std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
    return true;
  };
  ComponentId id;
  auto slash = text.find('/');
  if (slash == std::string_view::npos) {
    id.type = std::string(text);
  } else {
    id.type = std::string(text.substr(0, slash));
    id.name = std::string(text.substr(slash + 1));
    if (!valid(id.name)) return std::nullopt;
  }
  if (!valid(id.type)) return std::nullopt;
  return id;
}

}  // namespace proflow
