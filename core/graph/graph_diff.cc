#include "core/graph/graph_diff.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace proflow::graph {

std::string NodeKey::str() const {
  std::string s = std::string(componentKindName(kind)) + "/" + id.str();
  if (!pipeline.empty()) s += "@" + pipeline;
  return s;
}

const char* nodeChangeName(NodeChange change) {
  switch (change) {
    case NodeChange::kKept: return "kept";
    case NodeChange::kChanged: return "changed";
    case NodeChange::kAdded: return "added";
    case NodeChange::kRemoved: return "removed";
  }
  return "?";
}

NodeChange GraphDiff::change(const NodeKey& key) const {
  auto it = nodes.find(key);
  return it == nodes.end() ? NodeChange::kRemoved : it->second;
}

std::vector<NodeKey> GraphDiff::with(NodeChange c) const {
  std::vector<NodeKey> out;
  for (const auto& [k, v] : nodes)
    if (v == c) out.push_back(k);
  return out;
}

size_t GraphDiff::count(NodeChange c) const {
  return static_cast<size_t>(std::count_if(nodes.begin(), nodes.end(), [c](const auto& kv) { return kv.second == c; }));
}

bool GraphDiff::empty() const { return count(NodeChange::kKept) == nodes.size(); }

std::string GraphDiff::summary() const {
  std::string out;
  for (NodeChange c : {NodeChange::kKept, NodeChange::kChanged, NodeChange::kAdded, NodeChange::kRemoved}) {
    const auto keys = with(c);
    if (!out.empty()) out += ", ";
    out += std::to_string(keys.size()) + " " + nodeChangeName(c);
    if (c == NodeChange::kKept || keys.empty()) continue;
    out += " (";
    for (size_t i = 0; i < keys.size(); ++i) out += (i ? ", " : "") + keys[i].str();
    out += ")";
  }
  return out;
}

bool sameSettings(const config::ConfigNode& a, const config::ConfigNode& b) {
  // `otlp:` and `otlp: {}` both mean "every default".
  auto emptyMap = [](const config::ConfigNode& n) { return n.isNull() || (n.isMap() && n.entries.empty()); };
  if (emptyMap(a) && emptyMap(b)) return true;
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case config::ConfigNode::Kind::kNull: return true;
    case config::ConfigNode::Kind::kScalar: return a.scalar == b.scalar;
    case config::ConfigNode::Kind::kSequence:
      if (a.items.size() != b.items.size()) return false;
      for (size_t i = 0; i < a.items.size(); ++i)
        if (!sameSettings(a.items[i], b.items[i])) return false;
      return true;
    case config::ConfigNode::Kind::kMap:
      // Keys are unique within a map, so equal sizes and every key matching is equality.
      if (a.entries.size() != b.entries.size()) return false;
      for (const auto& [key, value] : a.entries) {
        const config::ConfigNode* other = b.find(key);
        if (other == nullptr || !sameSettings(value, *other)) return false;
      }
      return true;
  }
  return false;
}

std::map<NodeKey, const config::ComponentEntry*> graphNodes(const config::ServiceConfig& cfg) {
  std::map<NodeKey, const config::ComponentEntry*> out;
  for (const auto& id : cfg.enabled_extensions) out[{ComponentKind::kExtension, id, ""}] = &cfg.extensions.at(id);
  for (const auto& p : cfg.pipelines) {
    for (const auto& id : p.receivers) out[{ComponentKind::kReceiver, id, ""}] = &cfg.receivers.at(id);
    for (const auto& id : p.processors) out[{ComponentKind::kProcessor, id, p.name}] = &cfg.processors.at(id);
    for (const auto& id : p.exporters) out[{ComponentKind::kExporter, id, ""}] = &cfg.exporters.at(id);
    for (const auto& id : p.to_connectors) out[{ComponentKind::kConnector, id, ""}] = &cfg.connectors.at(id);
  }
  return out;
}

namespace {

void restartOnly(std::vector<std::string>& out, const char* key, const std::string& running, const std::string& next) {
  if (running != next) out.push_back(std::string(key) + " (running: '" + running + "', new: '" + next + "')");
}

}  // namespace

GraphDiff diffConfigs(const config::ServiceConfig& running, const config::ServiceConfig& next) {
  GraphDiff diff;
  const auto before = graphNodes(running);
  const auto after = graphNodes(next);
  for (const auto& [key, entry] : after) {
    auto it = before.find(key);
    NodeChange c = it == before.end()                              ? NodeChange::kAdded
                   : sameSettings(it->second->settings, entry->settings) ? NodeChange::kKept
                                                                   : NodeChange::kChanged;
    // A connector is created with its routes: feeding other pipelines makes it a new instance.
    if (c == NodeChange::kKept && key.kind == ComponentKind::kConnector &&
        running.connectorRoutes(key.id) != next.connectorRoutes(key.id))
      c = NodeChange::kChanged;
    diff.nodes[key] = c;
    if (key.kind == ComponentKind::kExtension && c != NodeChange::kKept)
      diff.extension_changes.push_back(key.str() + " " + nodeChangeName(c));
  }
  for (const auto& [key, entry] : before) {
    if (after.count(key)) continue;
    diff.nodes[key] = NodeChange::kRemoved;
    if (key.kind == ComponentKind::kExtension) diff.extension_changes.push_back(key.str() + " removed");
  }
  const auto& rt = running.telemetry;
  const auto& nt = next.telemetry;
  restartOnly(diff.restart_only, "service.telemetry.metrics.address", rt.metrics.address, nt.metrics.address);
  restartOnly(diff.restart_only, "service.telemetry.metrics.auth.authenticator",
              rt.metrics.auth ? rt.metrics.auth->authenticator : "", nt.metrics.auth ? nt.metrics.auth->authenticator : "");
  restartOnly(diff.restart_only, "service.telemetry.logs.level", rt.logs.level, nt.logs.level);
  restartOnly(diff.restart_only, "service.telemetry.logs.encoding", rt.logs.encoding, nt.logs.encoding);
  restartOnly(diff.restart_only, "service.telemetry.logs.output_paths",
              fmt::format("{}", fmt::join(rt.logs.output_paths, ",")),
              fmt::format("{}", fmt::join(nt.logs.output_paths, ",")));
  const auto& rs = rt.status;
  const auto& ns = nt.status;
  restartOnly(diff.restart_only, "service.telemetry.status",
              fmt::format("{} {} {} {}", rs.enabled, rs.flamegraph.enabled, rs.flamegraph.max_bytes.bytes,
                          rs.flamegraph.max_pending_bytes.bytes),
              fmt::format("{} {} {} {}", ns.enabled, ns.flamegraph.enabled, ns.flamegraph.max_bytes.bytes,
                          ns.flamegraph.max_pending_bytes.bytes));
  restartOnly(diff.restart_only, "service.runtime.workers", std::to_string(running.runtime.workers),
              std::to_string(next.runtime.workers));
  restartOnly(diff.restart_only, "service.runtime.io_threads", std::to_string(running.runtime.io_threads),
              std::to_string(next.runtime.io_threads));
  return diff;
}

}  // namespace proflow::graph
