// The running daemon: self-telemetry, the component graph, and the order things start and stop in.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/component.h"
#include "core/config/service_config.h"
#include "core/graph/pipeline_graph.h"
#include "core/registry.h"
#include "core/runtime.h"
#include "core/telemetry/metrics.h"

namespace proflow {

class TelemetryServer;

class Service final : public Host {
 public:
  explicit Service(config::ServiceConfig config);
  ~Service() override;

  // Builds the graph and starts it (extensions, exporters, ..., receivers last), then the telemetry
  // endpoint (after the extensions, which may authenticate its requests).
  Status start();
  // Receivers stop first; queues drain until service.shutdown_timeout. Idempotent.
  void shutdown();

  // True when every pipeline runs and no component reported a fatal error.
  bool healthy() const { return healthy_.load(); }
  telemetry::MetricsRegistry& metrics() { return metrics_; }
  graph::PipelineGraph* graph() { return graph_.get(); }
  const config::ServiceConfig& config() const { return config_; }
  // The bound telemetry port (useful with address port 0); 0 when disabled.
  uint16_t telemetryPort() const;

  void reportFatalError(const ComponentId& id, const Status& status) override;
  Component* extension(const ComponentId& id) override;

 private:
  void registerProcessMetrics();

  config::ServiceConfig config_;
  telemetry::MetricsRegistry metrics_;
  std::unique_ptr<Runtime> runtime_;
  std::unique_ptr<graph::PipelineGraph> graph_;
  std::unique_ptr<TelemetryServer> telemetry_server_;
  std::atomic<bool> healthy_{false};
  std::mutex shutdown_mu_;
  bool shut_down_ = false;
};

}  // namespace proflow
