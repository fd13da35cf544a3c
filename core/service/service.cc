#include "core/service/service.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <fstream>
#include <memory>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

#include "core/auth/auth_config.h"
#include "core/net/tls_server.h"
#include "core/runtime/cpu_limits.h"
#include "core/status/last_errors.h"
#include "core/status/status_api.h"
#include "core/telemetry/telemetry_server.h"
#include "core/runtime/thread_name.h"

namespace proflow {
namespace {

// Gives up `p` without destroying it: a worker still running may use it. LeakSanitizer is told, so
// a sanitizer build reports only leaks nobody meant.
template <class T>
void leakOnPurpose(std::unique_ptr<T>& p) {
  T* object = p.release();
#if defined(__SANITIZE_ADDRESS__)
  if (object) __lsan_ignore_object(object);
#else
  (void)object;
#endif
}

double residentBytes() {
  std::ifstream statm("/proc/self/statm");
  long pages_total = 0, pages_resident = 0;
  statm >> pages_total >> pages_resident;
  return static_cast<double>(pages_resident) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

}  // namespace

Service::Service(config::ServiceConfig config)
    : config_(std::make_shared<config::ServiceConfig>(std::move(config))) {
  registerReloadMetrics();
}

Service::~Service() { shutdown(); }

void Service::registerProcessMetrics() {
  const auto started = std::chrono::steady_clock::now();
  metrics_.callbackGauge("proflow_process_resident_memory_bytes", "resident set size of the daemon", {}, residentBytes);
  metrics_.callbackGauge("proflow_process_uptime_seconds", "seconds since the service started", {}, [started] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  });
  metrics_.callbackGauge("proflow_service_healthy", "1 when every pipeline runs", {},
                         [this] { return healthy_.load() ? 1.0 : 0.0; });
}

Status Service::start() {
  registerProcessMetrics();
  const unsigned affinity = affinityCpus();
  const std::optional<double> quota = cgroupCpuQuota();
  const unsigned cpus = usableCpus(affinity, quota);
  const RuntimeSize size = resolveRuntimeSize(
      {static_cast<unsigned>(config_->runtime.workers), static_cast<unsigned>(config_->runtime.io_threads)}, cpus);
  spdlog::info("runtime: {} worker(s), {} I/O thread(s) ({} usable CPU(s): affinity {}, cgroup quota {})",
               size.workers, size.io_threads, cpus, affinity, quota ? fmt::format("{:.2f}", *quota) : "none");
  runtime_ = std::make_unique<Runtime>(size.io_threads, size.workers);
  io_threads_ = size.io_threads;
  const auto& metrics_cfg = config_->telemetry.metrics;
  const bool endpoint = !metrics_cfg.address.empty() && metrics_cfg.address != "none";
  if (const auto& sc = config_->telemetry.status; endpoint && sc.enabled) {
    status::installLastErrorSink();  // before the components clone the default logger
    if (sc.flamegraph.enabled)
      tap_ = std::make_unique<status::FlameTap>(
          status::FlameTap::Options{
              {sc.flamegraph.max_bytes.bytes}, sc.flamegraph.max_pending_bytes.bytes, sc.flamegraph.max_cpu},
          metrics_);
    status_ = std::make_unique<status::StatusApi>(metrics_, tap_.get(), [this] { return healthy(); });
    status_->setConfig(config_);
  }
  Status s = graph::PipelineGraph::build(*config_, *runtime_, metrics_, &graph_, tap_.get());
  if (!s.isOk()) return s;
  s = graph_->start(*this);
  if (!s.isOk()) return s;
  if (endpoint) {
    const auth::ServerAuthenticator* authenticator = nullptr;
    s = auth::findServerAuthenticator(*this, metrics_cfg.auth, &authenticator);
    if (!s.isOk()) return Status(s.code(), "telemetry endpoint: " + s.message());
    TelemetryServer::Options options{metrics_cfg.address, authenticator, nullptr, false};
    if (const auto& tls = metrics_cfg.tls) {
      s = net::makeServerTlsContext(*tls, &options.tls);
      if (!s.isOk()) return Status(s.code(), "telemetry endpoint: " + s.message());
      options.tls_verifies_clients = !tls->client_ca_file.empty();
    }
    telemetry_server_ = std::make_unique<TelemetryServer>(runtime_->io(), std::move(options), metrics_,
                                                          [this] { return healthy(); });
    telemetry_server_->onReload([this](std::function<void(int, std::string)> answer) {
      requestReload("POST /-/reload", [answer](const ReloadOutcome& o) {
        answer(o.applied ? 200 : o.partial ? 500 : 400, o.message);
      });
    });
    if (status_)
      status_->addRoutes([this](std::string method, std::string path, TelemetryServer::Handler handler) {
        telemetry_server_->route(method, path, std::move(handler), runtime_->workers().get_executor());
      });
    s = telemetry_server_->start();
    if (!s.isOk()) return Status(s.code(), "telemetry endpoint: " + s.message());
  }
  setDescribed(config_);
  healthy_ = true;
  reload_thread_ = std::thread([this] { setThreadName("reload"); reloadLoop(); });
  spdlog::info("proflow {} started: {} pipeline(s), {} component(s)", PROFLOW_VERSION, graph_->pipelineCount(),
               graph_->nodes().size());
  return Status::ok();
}

bool Service::shutdown() {
  {
    std::lock_guard lock(queue_mu_);
    queue_stopping_ = true;
    pending_.reset();  // its answers are dropped: an HTTP client gets a 500
  }
  queue_cv_.notify_all();
  if (reload_thread_.joinable()) reload_thread_.join();
  std::lock_guard reload_lock(reload_mu_);  // a reload from another thread finishes first
  std::lock_guard lock(shutdown_mu_);
  if (shut_down_) return !workers_left_running_;
  shut_down_ = true;
  healthy_ = false;
  const auto deadline = std::chrono::steady_clock::now() + config_->shutdown_timeout.value;
  if (graph_) {
    spdlog::info("shutting down: draining for up to {}", config_->shutdown_timeout.str());
    graph_->shutdown(deadline);
  }
  if (telemetry_server_) telemetry_server_->stop();
  if (runtime_ && !runtime_->stop(deadline)) {
    // A request still runs on a worker (a peer that does not answer, a parse that takes long): it
    // uses the graph, so nothing it may touch is destroyed. The process exits instead of waiting.
    spdlog::warn("shutdown: a request was still being processed after service.shutdown_timeout ({}); "
                 "it is left unfinished (its client gets no answer and retries)",
                 config_->shutdown_timeout.str());
    workers_left_running_ = true;
    leakOnPurpose(graph_);
    leakOnPurpose(telemetry_server_);
    leakOnPurpose(runtime_);
    leakOnPurpose(status_);
    leakOnPurpose(tap_);
    return false;
  }
  graph_.reset();
  telemetry_server_.reset();
  runtime_.reset();
  status_.reset();
  tap_.reset();
  return true;
}

uint16_t Service::telemetryPort() const { return telemetry_server_ ? telemetry_server_->port() : 0; }

Component* Service::extension(const ComponentId& id) { return graph_ ? graph_->extension(id) : nullptr; }

void Service::setDescribed(std::shared_ptr<const config::ServiceConfig> running) {
  std::lock_guard lock(described_mu_);
  described_ = std::move(running);
  if (started_ == std::chrono::system_clock::time_point{}) started_ = std::chrono::system_clock::now();
}

HostDescription Service::describe() const {
  std::shared_ptr<const config::ServiceConfig> cfg;
  HostDescription d;
  {
    std::lock_guard lock(described_mu_);
    cfg = described_;
    d.started = started_;
  }
  if (!cfg) return d;
  auto ids = [](const std::vector<ComponentId>& list, const std::vector<ComponentId>& connectors) {
    std::vector<std::string> out;
    for (const auto& id : list) out.push_back(id.str());
    for (const auto& id : connectors) out.push_back(id.str());
    return out;
  };
  for (const auto& p : cfg->pipelines)
    d.pipelines.push_back({p.name, ids(p.receivers, p.from_connectors), ids(p.processors, {}),
                           ids(p.exporters, p.to_connectors)});
  for (const auto& e : cfg->enabled_extensions) d.extensions.push_back(e.str());
  return d;
}

void Service::reportFatalError(const ComponentId& id, const Status& status) {
  healthy_ = false;
  spdlog::error("component {} failed: {}", id.str(), status.toString());
}

}  // namespace proflow
