#include "core/component/metadata.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

namespace proflow {
namespace {

constexpr ComponentKind kKinds[] = {ComponentKind::kReceiver, ComponentKind::kProcessor, ComponentKind::kExporter,
                                    ComponentKind::kExtension, ComponentKind::kConnector};

bool validTypeName(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

}  // namespace

Status parseComponentMetadata(std::string_view yaml, std::string_view source, ComponentMetadata* out) {
  const std::string where(source);
  auto bad = [&](const std::string& what) { return Status::invalid(where + ": " + what); };
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    return bad(std::string("not YAML: ") + e.what());
  }
  if (!root.IsMap()) return bad("expected a map");
  static const std::set<std::string> kKeys = {"type", "deprecated_aliases", "description", "status", "trust"};
  ComponentMetadata m;
  try {
    for (const auto& entry : root) {
      const std::string key = entry.first.as<std::string>();
      if (!kKeys.count(key)) return bad("unknown key '" + key + "'");
    }
    m.type = root["type"] ? root["type"].as<std::string>() : "";
    if (!validTypeName(m.type)) return bad("type '" + m.type + "' is not lower_snake_case");
    if (const auto aliases = root["deprecated_aliases"]) {
      if (!aliases.IsSequence()) return bad("deprecated_aliases: expected a list");
      for (const auto& a : aliases) {
        m.deprecated_aliases.push_back(a.as<std::string>());
        if (m.deprecated_aliases.back() == m.type) return bad("an alias equals the type");
      }
    }
    m.description = root["description"] ? root["description"].as<std::string>() : "";
    if (m.description.empty()) return bad("description is required (one line for `proflow components`)");
    const auto status = root["status"];
    if (!status || !status.IsMap()) return bad("status: {class, stability} is required");
    const std::string cls = status["class"] ? status["class"].as<std::string>() : "";
    const auto kind = std::find_if(std::begin(kKinds), std::end(kKinds),
                                   [&](ComponentKind k) { return cls == componentKindName(k); });
    if (kind == std::end(kKinds)) return bad("status.class '" + cls + "' is not a component kind");
    m.kind = *kind;
    const auto stability = status["stability"];
    if (!stability || !stability.IsMap() || stability.size() == 0)
      return bad("status.stability: expected a map of level to signals");
    for (const auto& level : stability) {
      const std::string name = level.first.as<std::string>();
      if (std::find(std::begin(kStabilityLevels), std::end(kStabilityLevels), name) == std::end(kStabilityLevels))
        return bad("status.stability: unknown level '" + name + "'");
      if (!level.second.IsSequence()) return bad("status.stability." + name + ": expected a list of signals");
      std::vector<std::string> signals;
      for (const auto& s : level.second) signals.push_back(s.as<std::string>());
      m.stability.emplace_back(name, std::move(signals));
    }
    const auto trust = root["trust"];
    if (!trust || !trust["accepts"] || !trust["exposes"])
      return bad("trust: {accepts, exposes} is required (what input it takes from whom, what it opens)");
    m.trust_accepts = trust["accepts"].as<std::string>();
    m.trust_exposes = trust["exposes"].as<std::string>();
  } catch (const YAML::Exception& e) {
    return bad(std::string("malformed value: ") + e.what());
  }
  *out = std::move(m);
  return Status::ok();
}

std::string stabilitySummary(const ComponentMetadata& metadata) {
  std::string out;
  for (const auto& [level, signals] : metadata.stability)
    for (const auto& signal : signals) out += (out.empty() ? "" : ", ") + signal + ": " + level;
  return out;
}

std::string deprecatedAliasMessage(std::string_view alias, std::string_view type) {
  return "\"" + std::string(alias) + "\" alias is deprecated; use \"" + std::string(type) + "\" instead";
}

}  // namespace proflow
