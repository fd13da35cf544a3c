#include "core/graph/pipeline_graph.h"

#include <map>
#include <spdlog/spdlog.h>

#include "core/graph/fanout_consumer.h"
#include "core/graph/observed_consumer.h"

namespace proflow::graph {
namespace {

std::shared_ptr<spdlog::logger> componentLogger(ComponentKind kind, const ComponentId& id) {
  auto base = spdlog::default_logger();
  auto logger = base->clone(std::string(componentKindName(kind)) + "/" + id.str());
  logger->set_level(base->level());
  return logger;
}

// Components are owned by the graph's nodes; consumers hold shared_ptrs that must not delete them.
template <class T>
std::shared_ptr<T> borrow(T* p) {
  return std::shared_ptr<T>(p, [](T*) {});
}

}  // namespace

struct PipelineGraph::BuildInputs {
  const config::ServiceConfig& cfg;
  std::shared_ptr<const void> config_owner;
  const PipelineGraph* running;  // null for a first build
  const GraphDiff* diff;         // null for a first build
  Runtime& runtime;
  telemetry::MetricsRegistry& metrics;
  status::BatchTap* tap;
};

Status PipelineGraph::build(const config::ServiceConfig& cfg, Runtime& runtime, telemetry::MetricsRegistry& metrics,
                            std::unique_ptr<PipelineGraph>* out, status::BatchTap* tap) {
  return assemble({cfg, nullptr, nullptr, nullptr, runtime, metrics, tap}, out);
}

Status PipelineGraph::buildNext(const config::ServiceConfig& cfg, std::shared_ptr<const void> config_owner,
                                const PipelineGraph& running, const GraphDiff& diff, Runtime& runtime,
                                telemetry::MetricsRegistry& metrics, std::unique_ptr<PipelineGraph>* out,
                                status::BatchTap* tap) {
  return assemble({cfg, std::move(config_owner), &running, &diff, runtime, metrics, tap}, out);
}

Status PipelineGraph::assemble(const BuildInputs& in, std::unique_ptr<PipelineGraph>* out) {
  const config::ServiceConfig& cfg = in.cfg;
  std::unique_ptr<PipelineGraph> g(new PipelineGraph());
  g->pipeline_count_ = cfg.pipelines.size();
  g->runtime_ = &in.runtime;

  // A node of the new graph: a copy of the running one when the diff keeps it (same component, edge
  // and counters), else a fresh one that reuses the running node's counters when its key existed.
  auto makeNode = [&](ComponentKind kind, const ComponentId& id, const std::string& pipeline) -> Node& {
    const NodeKey key{kind, id, pipeline};
    const Node* before = in.running ? in.running->find(key) : nullptr;
    Node n;
    n.change = in.diff ? in.diff->change(key) : NodeChange::kAdded;
    if (before && n.change == NodeChange::kKept) {
      n = *before;
      n.change = NodeChange::kKept;
    } else {
      n.kind = kind;
      n.id = id;
      n.pipeline = pipeline;
      n.config_owner = in.config_owner;
      if (before) {
        n.telemetry = before->telemetry;
      } else {
        telemetry::Labels extra;
        if (!pipeline.empty()) extra.emplace_back("pipeline", pipeline);
        n.telemetry = std::make_shared<telemetry::ComponentTelemetry>(in.metrics, kind, id.str(), extra);
      }
    }
    g->nodes_.push_back(std::move(n));
    return g->nodes_.back();
  };
  auto kept = [](const Node& n) { return n.change == NodeChange::kKept; };
  auto settingsFor = [&](const Node& n) {
    return CreateSettings{n.id, n.kind, componentLogger(n.kind, n.id), n.telemetry.get(), &in.runtime};
  };
  auto failed = [](const Node& n, const std::string& why) {
    return Status::internal(std::string("creating ") + componentKindName(n.kind) + " '" + n.id.str() + "': " + why);
  };
  // Runs a factory, turning exceptions and null results into a creation error.
  auto create = [&](Node& n, auto&& make) -> Status {
    try {
      auto c = make();
      if (!c) return failed(n, "factory returned nothing");
      n.component = std::move(c);
    } catch (const std::exception& e) {
      return failed(n, e.what());
    }
    return Status::ok();
  };

  // 0. Extensions listed in service.extensions: started first, stopped last, so every component can
  // look them up at start().
  for (const auto& id : cfg.enabled_extensions) {
    const auto& entry = cfg.extensions.at(id);
    Node& n = makeNode(ComponentKind::kExtension, id, "");
    if (kept(n)) continue;
    Status s = create(n, [&] { return static_cast<const ExtensionFactory*>(entry.factory)->create(settingsFor(n), *entry.config); });
    if (!s.isOk()) return s;
  }

  // 1. Exporters: one instance per id, fed through an edge (that a replacement keeps) and counted.
  std::map<ComponentId, ConsumerPtr> exporter_inputs;
  for (const auto& p : cfg.pipelines)
    for (const auto& id : p.exporters) {
      if (exporter_inputs.count(id)) continue;
      const auto& entry = cfg.exporters.at(id);
      Node& n = makeNode(ComponentKind::kExporter, id, "");
      if (!kept(n)) {
        Status s = create(n, [&] { return static_cast<const ExporterFactory*>(entry.factory)->create(settingsFor(n), *entry.config); });
        if (!s.isOk()) return s;
        n.target = std::make_shared<ObservedConsumer>(borrow(dynamic_cast<Exporter*>(n.component.get())), *n.telemetry,
                                                      ObservedConsumer::Role::kInbound);
        const Node* before = in.running ? in.running->find(n.key()) : nullptr;
        // A changed exporter keeps its edge: takeOver() swaps the instance behind it.
        n.edge = before ? before->edge : std::make_shared<SwitchConsumer>(n.target);
      }
      exporter_inputs[id] = n.edge;
    }

  // 2. Pipelines downstream first. A connector is created when the first pipeline exporting to it is
  // built, after every pipeline it feeds (their entries are its routes); each route goes through an
  // edge that a reload re-points, counted as the connector's output.
  std::map<std::string, ConsumerPtr> pipeline_entries;
  std::map<ComponentId, ConsumerPtr> connector_inputs;
  auto connectorInput = [&](const ComponentId& id, ConsumerPtr* input) -> Status {
    if (auto it = connector_inputs.find(id); it != connector_inputs.end()) {
      *input = it->second;
      return Status::ok();
    }
    const auto& entry = cfg.connectors.at(id);
    Node& n = makeNode(ComponentKind::kConnector, id, "");
    n.route_targets.clear();
    for (const auto& name : cfg.connectorRoutes(id)) n.route_targets[name] = pipeline_entries.at(name);
    if (!kept(n)) {
      n.route_edges.clear();
      ConnectorRoutes routes;
      for (const auto& [name, target] : n.route_targets) {
        auto edge = std::make_shared<SwitchConsumer>(target);
        n.route_edges[name] = edge;
        routes[name] = std::make_shared<ObservedConsumer>(edge, *n.telemetry, ObservedConsumer::Role::kOutbound);
      }
      Status s = create(n, [&] {
        return static_cast<const ConnectorFactory*>(entry.factory)->create(settingsFor(n), *entry.config, routes);
      });
      if (!s.isOk()) return s;
    }
    *input = connector_inputs[id] = std::make_shared<ObservedConsumer>(
        borrow(dynamic_cast<Connector*>(n.component.get())), *n.telemetry, ObservedConsumer::Role::kInbound);
    return Status::ok();
  };
  std::map<ComponentId, std::vector<ConsumerPtr>> receiver_targets;
  // Pipelines whose processors edit batches, or feed (through connectors) pipelines that do; and
  // receivers with such a pipeline, whose status tap then holds few of their batches.
  std::map<std::string, bool> pipeline_edits;
  std::map<ComponentId, bool> receiver_edits;
  for (const config::PipelineConfig* pipeline : cfg.pipelinesDownstreamFirst()) {
    const config::PipelineConfig& p = *pipeline;
    bool edits = false;
    for (const auto& id : p.to_connectors)
      for (const auto& name : cfg.connectorRoutes(id)) edits = edits || pipeline_edits[name];
    std::vector<ConsumerPtr> outs;
    for (const auto& id : p.exporters) outs.push_back(exporter_inputs.at(id));
    for (const auto& id : p.to_connectors) {
      ConsumerPtr input;
      if (Status s = connectorInput(id, &input); !s.isOk()) return s;
      outs.push_back(std::move(input));
    }
    ConsumerPtr next = makeFanout(std::move(outs));
    for (auto it = p.processors.rbegin(); it != p.processors.rend(); ++it) {
      const auto& entry = cfg.processors.at(*it);
      Node& n = makeNode(ComponentKind::kProcessor, *it, p.name);
      n.target = next;
      if (!kept(n)) {
        n.edge = std::make_shared<SwitchConsumer>(next);
        auto outbound = std::make_shared<ObservedConsumer>(n.edge, *n.telemetry, ObservedConsumer::Role::kOutbound);
        Status s = create(n, [&] {
          return static_cast<const ProcessorFactory*>(entry.factory)->create(settingsFor(n), *entry.config, outbound);
        });
        if (!s.isOk()) return s;
      }
      auto* processor = dynamic_cast<Processor*>(n.component.get());
      edits = edits || processor->capabilities().mutates_data;
      next = std::make_shared<ObservedConsumer>(borrow(processor), *n.telemetry, ObservedConsumer::Role::kInbound);
    }
    pipeline_entries[p.name] = next;
    pipeline_edits[p.name] = edits;
    for (const auto& id : p.receivers) {
      receiver_targets[id].push_back(next);
      receiver_edits[id] = receiver_edits[id] || edits;
    }
  }

  // 3. Receivers: one instance per id, fanning out (through a counter, an edge and the status tap) to
  // every pipeline that lists it.
  for (auto& [id, targets] : receiver_targets) {
    const auto& entry = cfg.receivers.at(id);
    Node& n = makeNode(ComponentKind::kReceiver, id, "");
    n.target = status::withTap(makeFanout(targets), in.tap, receiver_edits[id]);
    if (kept(n)) continue;
    n.edge = std::make_shared<SwitchConsumer>(n.target);
    auto next = std::make_shared<ObservedConsumer>(n.edge, *n.telemetry, ObservedConsumer::Role::kInbound);
    Status s = create(n, [&] { return static_cast<const ReceiverFactory*>(entry.factory)->create(settingsFor(n), *entry.config, next); });
    if (!s.isOk()) return s;
  }

  *out = std::move(g);
  return Status::ok();
}

PipelineGraph::~PipelineGraph() {
  if (!shut_down_ && started_ > 0) shutdown(std::chrono::steady_clock::now());
}

Status PipelineGraph::start(Host& host) {
  for (auto& n : nodes_) {
    Status s = n.component->start(host);
    if (!s.isOk()) {
      Status err(s.code(), std::string("starting ") + componentKindName(n.kind) + " '" + n.id.str() + "': " + s.message());
      shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(5));
      return err;
    }
    ++started_;
  }
  return Status::ok();
}

const PipelineGraph::Node* PipelineGraph::find(const NodeKey& key) const {
  for (const auto& n : nodes_)
    if (n.kind == key.kind && n.id == key.id && n.pipeline == key.pipeline) return &n;
  return nullptr;
}

Component* PipelineGraph::extension(const ComponentId& id) const {
  for (const auto& n : nodes_)
    if (n.kind == ComponentKind::kExtension && n.id == id) return n.component.get();
  return nullptr;
}

void PipelineGraph::shutdown(Deadline deadline) {
  if (shut_down_) return;
  shut_down_ = true;
  // Reverse start order: receivers, then processors from first to last, then exporters.
  for (size_t i = started_; i-- > 0;)
    if (nodes_[i].component) nodes_[i].component->shutdown(deadline);
}

}  // namespace proflow::graph
