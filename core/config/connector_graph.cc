// The pipeline graph that connectors make: which pipelines a connector joins, the order pipelines
// are built in, and the load-time rules (see checkConnectorGraph in service_config.h).
#include <algorithm>
#include <functional>

#include "core/component/factory.h"
#include "core/config/service_config.h"

namespace proflow::config {
namespace {

// The pipelines each pipeline feeds through its connectors: edges pipeline -> (connector, pipeline).
struct PipelineEdges {
  std::map<std::string, std::vector<std::pair<ComponentId, const PipelineConfig*>>> out;
};

PipelineEdges pipelineEdges(const ServiceConfig& cfg) {
  PipelineEdges edges;
  for (const auto& from : cfg.pipelines)
    for (const auto& c : from.to_connectors)
      for (const auto& to : cfg.pipelines)
        if (std::find(to.from_connectors.begin(), to.from_connectors.end(), c) != to.from_connectors.end())
          edges.out[from.name].emplace_back(c, &to);
  return edges;
}

const SourceLocation* usedAt(const ServiceConfig& cfg, const ComponentId& id, bool as_exporter, std::string* path) {
  for (const auto& p : cfg.pipelines) {
    auto it = p.connector_locations.find({as_exporter, id});
    if (it == p.connector_locations.end()) continue;
    *path = "service.pipelines." + p.name + (as_exporter ? ".exporters" : ".receivers");
    return &it->second;
  }
  return nullptr;
}

void checkAmbiguousIds(const ServiceConfig& cfg, ConfigErrors& errors) {
  for (const auto& [id, entry] : cfg.connectors)
    for (ComponentKind kind : {ComponentKind::kReceiver, ComponentKind::kExporter})
      if (cfg.section(kind).count(id))
        errors.add("connectors." + id.str(), entry.location,
                   "ambiguous id: '" + id.str() + "' is both a " + componentKindName(kind) +
                       " and a connector; rename one (e.g. '" + id.type + "/connector')");
}

void checkBothSides(const ServiceConfig& cfg, ConfigErrors& errors) {
  for (const auto& [id, entry] : cfg.connectors) {
    std::string as_exporter_path, as_receiver_path;
    const SourceLocation* as_exporter = usedAt(cfg, id, true, &as_exporter_path);
    const SourceLocation* as_receiver = usedAt(cfg, id, false, &as_receiver_path);
    if (as_exporter && !as_receiver)
      errors.add(as_exporter_path, *as_exporter,
                 "connector '" + id.str() +
                     "' is used as an exporter but no pipeline lists it as a receiver: a connector must be both");
    if (as_receiver && !as_exporter)
      errors.add(as_receiver_path, *as_receiver,
                 "connector '" + id.str() +
                     "' is used as a receiver but no pipeline lists it as an exporter: a connector must be both");
    if (as_exporter && as_receiver)
      static_cast<const ConnectorFactory*>(entry.factory)->checkRoutes(*entry.config, cfg.connectorRoutes(id), errors);
  }
}

// Depth-first search from every pipeline; a pipeline met again on the current path closes a cycle,
// reported once per cycle at the location of the pipeline it starts from.
void checkCycles(const ServiceConfig& cfg, ConfigErrors& errors) {
  const PipelineEdges edges = pipelineEdges(cfg);
  enum class Mark { kNone, kOnPath, kDone };
  std::map<std::string, Mark> marks;
  std::vector<std::string> path;  // alternating pipeline, connector, pipeline, ...
  std::function<void(const PipelineConfig&)> visit = [&](const PipelineConfig& p) {
    marks[p.name] = Mark::kOnPath;
    path.push_back(p.name);
    auto it = edges.out.find(p.name);
    if (it != edges.out.end())
      for (const auto& [connector, next] : it->second) {
        const Mark m = marks[next->name];
        if (m == Mark::kOnPath) {
          const size_t start = static_cast<size_t>(std::find(path.begin(), path.end(), next->name) - path.begin());
          std::string text;
          for (size_t i = start; i < path.size(); ++i) text += path[i] + " -> ";
          text += connector.str() + " -> " + next->name;
          errors.add("service.pipelines." + next->name, next->location, "pipelines form a cycle through connectors: " + text);
          continue;
        }
        if (m == Mark::kDone) continue;
        path.push_back(connector.str());
        visit(*next);
        path.pop_back();
      }
    path.pop_back();
    marks[p.name] = Mark::kDone;
  };
  for (const auto& p : cfg.pipelines)
    if (marks[p.name] == Mark::kNone) visit(p);
}

}  // namespace

std::set<std::string> ServiceConfig::connectorRoutes(const ComponentId& id) const {
  std::set<std::string> out;
  for (const auto& p : pipelines)
    if (std::find(p.from_connectors.begin(), p.from_connectors.end(), id) != p.from_connectors.end())
      out.insert(p.name);
  return out;
}

std::vector<const PipelineConfig*> ServiceConfig::pipelinesDownstreamFirst() const {
  const PipelineEdges edges = pipelineEdges(*this);
  std::vector<const PipelineConfig*> order;
  std::set<std::string> placed, visiting;
  // Post-order: a pipeline is placed after everything it feeds. `visiting` stops a cycle a config
  // that failed validation may still hold.
  std::function<void(const PipelineConfig&)> place = [&](const PipelineConfig& p) {
    if (placed.count(p.name) || !visiting.insert(p.name).second) return;
    auto it = edges.out.find(p.name);
    if (it != edges.out.end())
      for (const auto& [connector, next] : it->second) place(*next);
    placed.insert(p.name);
    order.push_back(&p);
  };
  for (const auto& p : pipelines) place(p);
  return order;
}

void checkConnectorGraph(const ServiceConfig& cfg, ConfigErrors& errors) {
  checkAmbiguousIds(cfg, errors);
  checkBothSides(cfg, errors);
  checkCycles(cfg, errors);
}

}  // namespace proflow::config
