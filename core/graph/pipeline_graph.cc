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

Status PipelineGraph::build(const config::ServiceConfig& cfg, Runtime& runtime, telemetry::MetricsRegistry& metrics,
                            std::unique_ptr<PipelineGraph>* out) {
  std::unique_ptr<PipelineGraph> g(new PipelineGraph());
  g->pipeline_count_ = cfg.pipelines.size();

  auto makeNode = [&](ComponentKind kind, const ComponentId& id, const std::string& pipeline) -> Node& {
    Node n;
    n.kind = kind;
    n.id = id;
    n.pipeline = pipeline;
    telemetry::Labels extra;
    if (!pipeline.empty()) extra.emplace_back("pipeline", pipeline);
    n.telemetry = std::make_unique<telemetry::ComponentTelemetry>(metrics, kind, id.str(), extra);
    g->nodes_.push_back(std::move(n));
    return g->nodes_.back();
  };
  auto settingsFor = [&](const Node& n) {
    return CreateSettings{n.id, n.kind, componentLogger(n.kind, n.id), n.telemetry.get(), &runtime};
  };
  auto failed = [](const Node& n, const std::string& why) {
    return Status::internal(std::string("creating ") + componentKindName(n.kind) + " '" + n.id.str() + "': " + why);
  };

  // 0. Extensions listed in service.extensions: started first, stopped last, so every component can
  // look them up at start().
  for (const auto& id : cfg.enabled_extensions) {
    const auto& entry = cfg.extensions.at(id);
    Node& n = makeNode(ComponentKind::kExtension, id, "");
    std::unique_ptr<Extension> ext;
    try {
      ext = static_cast<const ExtensionFactory*>(entry.factory)->create(settingsFor(n), *entry.config);
    } catch (const std::exception& e) {
      return failed(n, e.what());
    }
    if (!ext) return failed(n, "factory returned nothing");
    n.component = std::move(ext);
  }

  // 1. Exporters: one instance per id, fronted by an inbound counter.
  std::map<ComponentId, ConsumerPtr> exporter_inputs;
  for (const auto& p : cfg.pipelines)
    for (const auto& id : p.exporters) {
      if (exporter_inputs.count(id)) continue;
      const auto& entry = cfg.exporters.at(id);
      Node& n = makeNode(ComponentKind::kExporter, id, "");
      std::unique_ptr<Exporter> exp;
      try {
        exp = static_cast<const ExporterFactory*>(entry.factory)->create(settingsFor(n), *entry.config);
      } catch (const std::exception& e) {
        return failed(n, e.what());
      }
      if (!exp) return failed(n, "factory returned nothing");
      Exporter* raw = exp.get();
      n.component = std::move(exp);
      exporter_inputs[id] =
          std::make_shared<ObservedConsumer>(borrow<ProfilesConsumer>(raw), *n.telemetry, ObservedConsumer::Role::kInbound);
    }

  // 2. Processors per pipeline, last to first, each fed into the previous `next`.
  std::map<ComponentId, std::vector<ConsumerPtr>> receiver_targets;
  for (const auto& p : cfg.pipelines) {
    std::vector<ConsumerPtr> outs;
    for (const auto& id : p.exporters) outs.push_back(exporter_inputs.at(id));
    ConsumerPtr next = makeFanout(std::move(outs));
    for (auto it = p.processors.rbegin(); it != p.processors.rend(); ++it) {
      const auto& entry = cfg.processors.at(*it);
      Node& n = makeNode(ComponentKind::kProcessor, *it, p.name);
      auto outbound = std::make_shared<ObservedConsumer>(next, *n.telemetry, ObservedConsumer::Role::kOutbound);
      std::unique_ptr<Processor> proc;
      try {
        proc = static_cast<const ProcessorFactory*>(entry.factory)->create(settingsFor(n), *entry.config, outbound);
      } catch (const std::exception& e) {
        return failed(n, e.what());
      }
      if (!proc) return failed(n, "factory returned nothing");
      Processor* raw = proc.get();
      n.component = std::move(proc);
      next = std::make_shared<ObservedConsumer>(borrow<ProfilesConsumer>(raw), *n.telemetry,
                                                ObservedConsumer::Role::kInbound);
    }
    for (const auto& id : p.receivers) receiver_targets[id].push_back(next);
  }

  // 3. Receivers: one instance per id, fanning out to every pipeline that lists it.
  for (auto& [id, targets] : receiver_targets) {
    const auto& entry = cfg.receivers.at(id);
    Node& n = makeNode(ComponentKind::kReceiver, id, "");
    auto next = std::make_shared<ObservedConsumer>(makeFanout(targets), *n.telemetry, ObservedConsumer::Role::kInbound);
    std::unique_ptr<Receiver> rcv;
    try {
      rcv = static_cast<const ReceiverFactory*>(entry.factory)->create(settingsFor(n), *entry.config, next);
    } catch (const std::exception& e) {
      return failed(n, e.what());
    }
    if (!rcv) return failed(n, "factory returned nothing");
    n.component = std::move(rcv);
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

Component* PipelineGraph::extension(const ComponentId& id) const {
  for (const auto& n : nodes_)
    if (n.kind == ComponentKind::kExtension && n.id == id) return n.component.get();
  return nullptr;
}

void PipelineGraph::shutdown(Deadline deadline) {
  if (shut_down_) return;
  shut_down_ = true;
  // Reverse start order: receivers, then processors from first to last, then exporters.
  for (size_t i = started_; i-- > 0;) nodes_[i].component->shutdown(deadline);
}

}  // namespace proflow::graph
