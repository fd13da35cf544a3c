// Builds the running component graph from a validated ServiceConfig and drives its lifecycle.
//
//   receiver ─┬─> [pipeline A: processor -> processor] ─┬─> exporter X
//             └─> [pipeline B: processor]              ─┴─> exporter Y
//
// Receivers, exporters and connectors are single instances shared by every pipeline that names them;
// processors get one instance per pipeline. Construction goes downstream-first (exporters, then the
// pipelines in dependency order: a connector after the pipelines it feeds and before the processors
// of those that export to it, each pipeline's processors from last to first; receivers last) so each
// component receives its `next` on creation.
// Start runs in the same order (exporters first, receivers last) and shutdown in reverse, so data in
// flight always has somewhere to go.
//
// Every receiver and processor feeds a SwitchConsumer, and every exporter is fed through one, so a
// reload can build the next graph around the components it keeps (buildNext) and move the traffic
// over (takeOver) without stopping them: see graph_diff.h for what is kept.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/config/service_config.h"
#include "core/component/factory.h"
#include "core/graph/graph_diff.h"
#include "core/graph/switch_consumer.h"
#include "core/runtime/runtime.h"
#include "core/status/batch_tap.h"
#include "core/telemetry/metrics.h"

namespace proflow::graph {

class PipelineGraph {
 public:
  // Creates every component. Fails with the first creation error (configs were validated before).
  // With a `tap`, what the pipelines accept from each receiver is offered to it (status page).
  static Status build(const config::ServiceConfig& config, Runtime& runtime, telemetry::MetricsRegistry& metrics,
                      std::unique_ptr<PipelineGraph>* out, status::BatchTap* tap = nullptr);
  // The graph of `config` sharing with `running` the nodes `diff` keeps (running, same edges and
  // counters); changed and added ones are created, not started. `config_owner` keeps the config the
  // new components were created from alive as long as they run.
  static Status buildNext(const config::ServiceConfig& config, std::shared_ptr<const void> config_owner,
                          const PipelineGraph& running, const GraphDiff& diff, Runtime& runtime,
                          telemetry::MetricsRegistry& metrics, std::unique_ptr<PipelineGraph>* out,
                          status::BatchTap* tap = nullptr);

  ~PipelineGraph();

  // Exporters, then processors and connectors downstream first, then receivers. On failure, what
  // started is shut down again.
  Status start(Host& host);
  // Receivers first (no new data), then processors in pipeline order (flush), then exporters (drain).
  void shutdown(Deadline deadline);

  // Moves the traffic from `running` (the graph this one was built from) to this one:
  //  1. starts the added and changed exporters, processors and extensions (no traffic reaches them
  //     yet); if one fails, they are shut down again and `running` carries on untouched;
  //  2. replaces each changed exporter in place: its edge holds new calls, the old instance drains
  //     (a persistent queue stays on disk for the new one), is shut down and destroyed (releasing
  //     the queue directory's lock), the new one starts, the calls go on. When calls are still
  //     inside the old instance at `deadline`, it is not shut down: it stays in place with its
  //     settings (Node::runs_previous_settings) and the result names it;
  //  3. re-points the edges of kept processors, connectors and receivers at the new chain;
  //  4. stops removed and changed receivers (freeing their sockets), then starts changed and added
  //     ones;
  //  5. waits for the calls still in the old chain, then shuts down removed and changed processors
  //     and connectors and removed exporters, upstream first, with `deadline`.
  // Afterwards `running` owns nothing that runs. `*switched` is false only when step 1 failed.
  // `io_threads`: how many threads run the runtime's io_context (step 4 waits for them to catch up).
  Status takeOver(PipelineGraph& running, Host& host, Deadline deadline, bool* switched, unsigned io_threads = 1);

  struct Node {
    ComponentKind kind;
    ComponentId id;
    std::string pipeline;  // processors only
    // Declared before the component, so the component goes first (it may use both until then).
    std::shared_ptr<const void> config_owner;
    std::shared_ptr<telemetry::ComponentTelemetry> telemetry;
    std::shared_ptr<Component> component;
    // Receivers and processors: the edge they feed. Exporters: the edge feeding them.
    std::shared_ptr<SwitchConsumer> edge;
    // Where `edge` leads in this graph: the downstream chain, or the (counted) exporter itself.
    ConsumerPtr target;
    // Connectors: one edge per pipeline they feed (by pipeline name), and where each leads in this
    // graph (the pipeline's entry), so a kept connector is re-pointed like a kept processor.
    std::map<std::string, std::shared_ptr<SwitchConsumer>> route_edges;
    std::map<std::string, ConsumerPtr> route_targets;
    // Relative to the graph this one was built from; kAdded for a first build.
    NodeChange change = NodeChange::kAdded;
    // A changed exporter takeOver() could not replace (calls were still inside the old instance at
    // the deadline): this node runs the previous instance, with the previous graph's settings.
    bool runs_previous_settings = false;
    NodeKey key() const { return {kind, id, pipeline}; }
  };
  // In start order (tests inspect it).
  const std::vector<Node>& nodes() const { return nodes_; }
  const Node* find(const NodeKey& key) const;
  size_t pipelineCount() const { return pipeline_count_; }
  // A created extension by id (started once start() got past it), or nullptr.
  Component* extension(const ComponentId& id) const;

 private:
  Node* mutableNode(const NodeKey& key) { return const_cast<Node*>(find(key)); }
  // takeOver's step 2 for one exporter: `n` takes `old`'s place behind their edge, or, when calls
  // are still inside `old` at the deadline, `n` keeps running `old` (never shut down under a call).
  static Status replaceExporter(Node& old, Node& n, Host& host, Deadline deadline);
  struct BuildInputs;
  static Status assemble(const BuildInputs& in, std::unique_ptr<PipelineGraph>* out);

  PipelineGraph() = default;
  std::vector<Node> nodes_;  // start order
  Runtime* runtime_ = nullptr;
  size_t started_ = 0;
  size_t pipeline_count_ = 0;
  bool shut_down_ = false;
};

// After takeOver: each exporter that runs its previous settings gets them back in `next` (the config
// kept as the running one), so the diff of the next reload sees it changed and replaces it again.
void keepPreviousSettings(const PipelineGraph& graph, const config::ServiceConfig& previous,
                          config::ServiceConfig* next);

}  // namespace proflow::graph
