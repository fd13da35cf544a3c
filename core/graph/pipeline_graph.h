// Builds the running component graph from a validated ServiceConfig and drives its lifecycle.
//
//   receiver ─┬─> [pipeline A: processor -> processor] ─┬─> exporter X
//             └─> [pipeline B: processor]              ─┴─> exporter Y
//
// Receivers and exporters are single instances shared by every pipeline that names them;
// processors get one instance per pipeline. Construction goes downstream-first (exporters, then
// processors from last to first, then receivers) so each component receives its `next` on creation.
// Start runs in the same order (exporters first, receivers last) and shutdown in reverse, so data in
// flight always has somewhere to go.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/config/service_config.h"
#include "core/factory.h"
#include "core/runtime.h"
#include "core/telemetry/metrics.h"

namespace proflow::graph {

class PipelineGraph {
 public:
  // Creates every component. Fails with the first creation error (configs were validated before).
  static Status build(const config::ServiceConfig& config, Runtime& runtime, telemetry::MetricsRegistry& metrics,
                      std::unique_ptr<PipelineGraph>* out);

  ~PipelineGraph();

  // Exporters, then processors, then receivers. On failure, what started is shut down again.
  Status start(Host& host);
  // Receivers first (no new data), then processors in pipeline order (flush), then exporters (drain).
  void shutdown(Deadline deadline);

  struct Node {
    ComponentKind kind;
    ComponentId id;
    std::string pipeline;  // processors only
    std::unique_ptr<Component> component;
    std::unique_ptr<telemetry::ComponentTelemetry> telemetry;
  };
  // In start order (tests inspect it).
  const std::vector<Node>& nodes() const { return nodes_; }
  size_t pipelineCount() const { return pipeline_count_; }
  // A created extension by id (started once start() got past it), or nullptr.
  Component* extension(const ComponentId& id) const;

 private:
  PipelineGraph() = default;
  std::vector<Node> nodes_;  // start order
  size_t started_ = 0;
  size_t pipeline_count_ = 0;
  bool shut_down_ = false;
};

}  // namespace proflow::graph
