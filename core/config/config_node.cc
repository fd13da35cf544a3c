#include "core/config/config_node.h"

namespace proflow::config {

std::string SourceLocation::str() const {
  if (line == 0) return file.empty() ? "<unknown>" : file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

ConfigNode::ConfigNode() = default;
ConfigNode::ConfigNode(const ConfigNode&) = default;
ConfigNode::ConfigNode(ConfigNode&&) noexcept = default;
ConfigNode& ConfigNode::operator=(const ConfigNode&) = default;
ConfigNode& ConfigNode::operator=(ConfigNode&&) noexcept = default;
ConfigNode::~ConfigNode() = default;

const ConfigNode* ConfigNode::find(std::string_view key) const {
  for (const auto& [k, v] : entries)
    if (k == key) return &v;
  return nullptr;
}

ConfigNode* ConfigNode::find(std::string_view key) {
  for (auto& [k, v] : entries)
    if (k == key) return &v;
  return nullptr;
}

const SourceLocation& ConfigNode::keyLocation(std::string_view key) const {
  for (size_t i = 0; i < entries.size(); ++i)
    if (entries[i].first == key && i < key_locations.size()) return key_locations[i];
  return location;
}

const char* ConfigNode::kindName(Kind k) {
  switch (k) {
    case Kind::kNull: return "null";
    case Kind::kScalar: return "a scalar";
    case Kind::kSequence: return "a list";
    case Kind::kMap: return "a map";
  }
  return "?";
}

void mergeInto(ConfigNode& base, const ConfigNode& overlay) {
  if (base.isMap() && overlay.isMap()) {
    for (size_t i = 0; i < overlay.entries.size(); ++i) {
      const auto& [key, value] = overlay.entries[i];
      const SourceLocation& key_location = i < overlay.key_locations.size() ? overlay.key_locations[i] : value.location;
      size_t at = 0;
      while (at < base.entries.size() && base.entries[at].first != key) ++at;
      if (at == base.entries.size()) {
        base.entries.emplace_back(key, value);
        base.key_locations.push_back(key_location);
      } else if (base.entries[at].second.isMap() && value.isMap()) {
        mergeInto(base.entries[at].second, value);
      } else {
        // Replaced: errors about this key now point where its value came from.
        base.entries[at].second = value;
        if (at < base.key_locations.size()) base.key_locations[at] = key_location;
      }
    }
    return;
  }
  base = overlay;
}

}  // namespace proflow::config
