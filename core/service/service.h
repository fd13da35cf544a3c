// The running daemon: self-telemetry, the component graph, and the order things start and stop in.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/component/component.h"
#include "core/config/service_config.h"
#include "core/graph/pipeline_graph.h"
#include "core/component/registry.h"
#include "core/runtime/runtime.h"
#include "core/telemetry/metrics.h"

namespace proflow {

class TelemetryServer;
namespace status {
class FlameTap;
class StatusApi;
}  // namespace status

class Service final : public Host {
 public:
  explicit Service(config::ServiceConfig config);
  ~Service() override;

  // Builds the graph and starts it (extensions, exporters, ..., receivers last), then the telemetry
  // endpoint (after the extensions, which may authenticate its requests).
  Status start();
  // Receivers stop first; queues drain until service.shutdown_timeout. Idempotent. False when a
  // worker task (a request being processed) still ran at the deadline: the graph and the threads
  // are then left alive for it (never destroyed under it), and the caller should exit the process.
  bool shutdown();

  // --- Reload (see core/README.md, "Reload") ---
  // Reads the whole config again (every --config file); fills `errors` with one line per problem.
  using ConfigSource = std::function<Status(config::ServiceConfig* out, std::string* errors)>;
  // Without a source, reloads are refused.
  void setConfigSource(ConfigSource source);
  struct ReloadOutcome {
    bool applied = false;  // false: refused, the running graph is as it was (unless `partial`)
    bool partial = false;  // the new graph runs, but some component failed to start (see message)
    std::string message;  // applied: what changed; refused: every error, one per line
  };
  // Loads the config from the source and applies it by difference (graph_diff.h); an invalid config
  // is refused and the running graph carries on. Serialized with other reloads and with shutdown.
  ReloadOutcome reload(const std::string& trigger);
  // Same, from a config already loaded and validated.
  ReloadOutcome apply(config::ServiceConfig next, const std::string& trigger);
  // Queues a reload on the service's reload thread (signal handlers, the telemetry endpoint, the file
  // watcher): `done`, if any, gets the outcome there. Requests coalesce: while one reload runs, every
  // request made meanwhile joins one pending reload (started once the running one ends, reading the
  // config as it is then) and all of them get its outcome, so N requests cost at most one more reload.
  void requestReload(std::string trigger, std::function<void(const ReloadOutcome&)> done = {});

  // True when every pipeline runs and no component reported a fatal error.
  bool healthy() const override { return healthy_.load(); }
  HostDescription describe() const override;
  telemetry::MetricsRegistry& metrics() { return metrics_; }
  graph::PipelineGraph* graph() { return graph_.get(); }
  const config::ServiceConfig& config() const { return *config_; }
  // The bound telemetry port (useful with address port 0); 0 when disabled.
  uint16_t telemetryPort() const;

  void reportFatalError(const ComponentId& id, const Status& status) override;
  Component* extension(const ComponentId& id) override;

 private:
  void registerProcessMetrics();
  void registerReloadMetrics();
  ReloadOutcome refuse(const std::string& trigger, const std::string& why);
  void reloadLoop();

  std::shared_ptr<config::ServiceConfig> config_;
  telemetry::MetricsRegistry metrics_;
  std::unique_ptr<Runtime> runtime_;
  unsigned io_threads_ = 1;
  std::unique_ptr<graph::PipelineGraph> graph_;
  std::unique_ptr<TelemetryServer> telemetry_server_;
  // The status page (core/status): its flame graph tap outlives every graph a reload builds.
  std::unique_ptr<status::FlameTap> tap_;
  std::unique_ptr<status::StatusApi> status_;
  std::atomic<bool> healthy_{false};
  // What describe() shows: the running config, swapped on reload (read from other threads).
  void setDescribed(std::shared_ptr<const config::ServiceConfig> running);
  mutable std::mutex described_mu_;
  std::shared_ptr<const config::ServiceConfig> described_;
  std::chrono::system_clock::time_point started_{};
  std::mutex shutdown_mu_;
  bool shut_down_ = false;
  bool workers_left_running_ = false;

  // Reloads: one at a time, never during shutdown.
  std::mutex reload_mu_;
  ConfigSource source_;
  telemetry::Counter* reloads_ = nullptr;
  telemetry::Counter* reload_successes_ = nullptr;
  telemetry::Counter* reload_failures_ = nullptr;
  telemetry::Gauge* last_reload_success_ = nullptr;
  telemetry::Gauge* last_reload_success_time_ = nullptr;
  telemetry::Counter* reloads_coalesced_ = nullptr;
  // The reload waiting for the running one to end: what asked for it and who waits for its outcome.
  struct PendingReload {
    std::string trigger;
    std::vector<std::function<void(const ReloadOutcome&)>> waiting;
  };
  std::mutex queue_mu_;
  std::condition_variable queue_cv_;
  std::optional<PendingReload> pending_;
  bool queue_stopping_ = false;
  std::thread reload_thread_;
};

}  // namespace proflow
