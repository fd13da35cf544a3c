// The whole daemon config in the OpenTelemetry Collector's shape: receivers / processors /
// exporters / extensions sections keyed by `type[/name]`, and `service` wiring them into pipelines.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/auth/auth_config.h"
#include "core/component/component.h"
#include "core/config/component_config.h"
#include "core/config/config_errors.h"
#include "core/config/config_node.h"
#include "core/component/registry.h"
#include "core/net/tls_config.h"
#include "core/status/status_config.h"

namespace proflow::config {

struct LogsConfig {
  std::string level = "info";     // trace, debug, info, warn, error (and the Collector's dpanic, panic, fatal)
  std::string encoding = "text";  // text (the Collector's console) or json
  std::vector<std::string> output_paths = {"stderr"};
  std::vector<std::string> error_output_paths = {"stderr"};
  // Keys of the Collector's logs config that have no counterpart here, claimed so that the error
  // about them says so (instead of "unknown key").
  ConfigNode sampling, initial_fields, development, disable_caller, disable_stacktrace, processors;
  template <class V>
  void visit(V& v) {
    v.field("level", level, "minimum level logged");
    v.field("encoding", encoding, "text (or console) or json");
    v.field("output_paths", output_paths, "where logs go: stderr, stdout or file paths (appended to)");
    v.field("error_output_paths", error_output_paths,
            "the Collector's destination of its logger's own failures; proflow's logger reports none (accepted)");
    for (auto [key, node] : {std::pair{"sampling", &sampling}, std::pair{"initial_fields", &initial_fields},
                             std::pair{"development", &development}, std::pair{"disable_caller", &disable_caller},
                             std::pair{"disable_stacktrace", &disable_stacktrace}, std::pair{"processors", &processors}})
      v.field(key, *node, "not supported");
  }
};

// One `service.telemetry.metrics.readers` entry in the Collector's shape. Only a pull Prometheus
// reader has a counterpart here: it is the endpoint's address.
struct PrometheusReaderConfig {
  std::string host = "localhost";
  int port = 8888;
  bool without_scope_info = false;
  bool without_type_suffix = false;
  bool without_units = false;
  template <class V>
  void visit(V& v) {
    v.field("host", host, "address to listen on");
    v.field("port", port, "port to listen on");
    v.field("without_scope_info", without_scope_info, "accepted; proflow's metrics carry no scope info");
    v.field("without_type_suffix", without_type_suffix, "accepted; names are proflow's own");
    v.field("without_units", without_units, "accepted; names are proflow's own");
  }
};
struct PullExporterConfig {
  std::optional<PrometheusReaderConfig> prometheus;
  template <class V>
  void visit(V& v) {
    v.field("prometheus", prometheus, "serve the metrics for Prometheus to scrape");
  }
};
struct PullReaderConfig {
  PullExporterConfig exporter;
  template <class V>
  void visit(V& v) {
    v.field("exporter", exporter, "{prometheus: {host, port}}");
  }
};
struct MetricReaderConfig {
  std::optional<PullReaderConfig> pull;
  ConfigNode periodic;  // refused with a message: proflow's metrics are pulled
  template <class V>
  void visit(V& v) {
    v.field("pull", pull, "{exporter: {prometheus: {host, port}}}: the telemetry endpoint's address");
    v.field("periodic", periodic, "not supported: the metrics are served for pull");
  }
};

// The telemetry endpoint (core/telemetry/telemetry_server.h says what it serves to whom).
struct MetricsConfig {
  std::string address = "127.0.0.1:8888";  // "" or "none" turns the endpoint off
  std::optional<auth::AuthConfig> auth;     // requests must authenticate through this extension
  std::optional<net::TlsServerConfig> tls;  // absent = plain text
  std::string level = "normal";             // the Collector's none | basic | normal | detailed
  std::vector<MetricReaderConfig> readers;  // the Collector's current form of `address`
  template <class V>
  void visit(V& v) {
    v.field("address", address, "host:port serving /metrics, /healthz, the status page and POST /-/reload");
    v.field("level", level, "none turns the endpoint off; basic, normal and detailed serve every metric");
    v.field("readers", readers,
            "the Collector's form: [{pull: {exporter: {prometheus: {host, port}}}}] sets the endpoint's address");
    v.field("auth", auth,
            "authenticate every request but GET /healthz: { authenticator: <extension id> }; required for the "
            "status page's data and reload on a non-loopback address");
    v.field("tls", tls, "serve HTTPS with this certificate (client_ca_file: clients must present a certificate)");
  }
};

struct TelemetryConfig {
  MetricsConfig metrics;
  LogsConfig logs;
  StatusConfig status;  // the status page on the metrics address (core/status/README.md)
  template <class V>
  void visit(V& v) {
    v.field("metrics", metrics);
    v.field("logs", logs);
    v.field("status", status);
  }
};

// service.runtime: threads shared by every component; 0 = sized to the CPUs the process may use.
struct RuntimeConfig {
  int workers = 0;
  int io_threads = 0;
  template <class V>
  void visit(V& v) {
    v.field("workers", workers, "threads decoding, processing and exporting; 0 = one per usable CPU");
    v.field("io_threads", io_threads, "threads serving sockets and timers; 0 = one per 4 workers, at least 1");
  }
};

struct ComponentEntry {
  ComponentId id;
  const Factory* factory = nullptr;
  std::unique_ptr<ComponentConfig> config;
  SourceLocation location;
  ConfigNode settings;  // the component's YAML as parsed (after merge and ${env:} expansion); reload compares it
};

struct PipelineConfig {
  std::string name;  // "profiles" or "profiles/<name>"
  std::vector<ComponentId> receivers;
  std::vector<ComponentId> processors;
  std::vector<ComponentId> exporters;
  // Connectors listed under `receivers` (they feed this pipeline) and under `exporters` (this
  // pipeline feeds them), with where each was listed.
  std::vector<ComponentId> from_connectors;
  std::vector<ComponentId> to_connectors;
  std::map<std::pair<bool, ComponentId>, SourceLocation> connector_locations;  // {listed as exporter, id}
  SourceLocation location;
};

struct ServiceConfig {
  std::map<ComponentId, ComponentEntry> receivers;
  std::map<ComponentId, ComponentEntry> processors;
  std::map<ComponentId, ComponentEntry> exporters;
  std::map<ComponentId, ComponentEntry> extensions;
  std::map<ComponentId, ComponentEntry> connectors;
  std::vector<ComponentId> enabled_extensions;
  std::vector<PipelineConfig> pipelines;
  TelemetryConfig telemetry;
  RuntimeConfig runtime;
  Duration shutdown_timeout = std::chrono::seconds(15);  // drain deadline on SIGTERM/SIGINT

  const std::map<ComponentId, ComponentEntry>& section(ComponentKind kind) const;
  // Names of the pipelines that list connector `id` as a receiver: where it sends.
  std::set<std::string> connectorRoutes(const ComponentId& id) const;
  // Pipelines in dependency order, downstream first: every pipeline comes before each pipeline that
  // exports to a connector feeding it. (Cycles are refused at load.)
  std::vector<const PipelineConfig*> pipelinesDownstreamFirst() const;
};

// Reads, merges, expands and validates config sources (paths, file:, env:, yaml:; see config_loader.h). On failure `error_text` lists every problem,
// one per line with file:line:column.
Status loadServiceConfig(const std::vector<std::string>& paths, const Registry& registry, ServiceConfig* out,
                         std::string* error_text, std::vector<std::string>* warnings = nullptr);
// Same, from YAML text (the embedded default config, tests), with `overlays` (config sources such as
// --set's yaml: ones) merged over it.
Status loadServiceConfigText(const std::string& yaml, const std::string& source_name, const Registry& registry,
                             ServiceConfig* out, std::string* error_text, std::vector<std::string>* warnings = nullptr,
                             const std::vector<std::string>& overlays = {});

// The Collector's rules for connectors: each one used is listed both as an exporter of some
// pipeline and as a receiver of another, ids are not shared with a receiver or exporter, its own
// config accepts its routes, and no chain of connectors leads a pipeline back to itself (the error
// names the cycle: "profiles/a -> forward -> profiles/b -> forward/2 -> profiles/a").
void checkConnectorGraph(const ServiceConfig& cfg, ConfigErrors& errors);

// Decodes and validates everything, adding every problem to `errors` (none stop the others).
// `warnings`, when given, gets what loads but should change (a deprecated component name).
ServiceConfig buildServiceConfig(const ConfigNode& root, const Registry& registry, ConfigErrors& errors,
                                 std::vector<std::string>* warnings = nullptr);

}  // namespace proflow::config
