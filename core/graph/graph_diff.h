// What a reload changes: the running config and a new one compared component by component.
//
// A node is one running instance: an extension, receiver, exporter or connector by id, a processor
// by id and pipeline (processors are per pipeline). It is kept when it exists in both configs with the
// same settings (and, for a connector, feeding the same pipelines), compared as parsed YAML (after merge and ${env:} expansion; key order, quoting,
// comments, file positions and `x:` versus `x: {}` do not count), changed when its settings differ,
// added or removed otherwise.
// Where a node sits in its pipelines does not matter: every receiver and processor feeds a
// SwitchConsumer that the reload re-points, so a kept node keeps running wherever it moved to.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/config/service_config.h"

namespace proflow::graph {

struct NodeKey {
  ComponentKind kind;
  ComponentId id;
  std::string pipeline;  // processors only
  std::string str() const;  // "processor/batch@profiles/a"
  auto operator<=>(const NodeKey&) const = default;
};

enum class NodeChange { kKept, kChanged, kAdded, kRemoved };
const char* nodeChangeName(NodeChange change);  // "kept", ...

struct GraphDiff {
  std::map<NodeKey, NodeChange> nodes;  // the union of both configs' nodes
  // Extensions are looked up by other components (and the telemetry endpoint) at start: a reload
  // that adds, removes or changes an enabled extension is refused (restart to apply it).
  std::vector<std::string> extension_changes;
  // service.telemetry and service.runtime settings that differ: they need a restart, the reload
  // keeps the running values.
  std::vector<std::string> restart_only;

  NodeChange change(const NodeKey& key) const;  // kRemoved when in neither
  std::vector<NodeKey> with(NodeChange change) const;
  size_t count(NodeChange change) const;
  bool empty() const;  // nothing to do for the graph
  // "2 kept, 1 changed (processor/batch@profiles), 1 added (processor/attributes@profiles), 0 removed"
  std::string summary() const;
};

// Structural equality of parsed YAML (see above).
bool sameSettings(const config::ConfigNode& a, const config::ConfigNode& b);

// Every running instance `config` describes, with the settings it was built from.
std::map<NodeKey, const config::ComponentEntry*> graphNodes(const config::ServiceConfig& config);

GraphDiff diffConfigs(const config::ServiceConfig& running, const config::ServiceConfig& next);

}  // namespace proflow::graph
