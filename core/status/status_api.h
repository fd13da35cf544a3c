// The status page and its JSON API on the telemetry endpoint (same bind, TLS and authentication as
// /metrics):
//   GET /                       the page (HTML, CSS and JS embedded in the binary)
//   GET /api/status             pipelines, and per component its counters, rates, queue and last error
//   GET /api/flamegraph/series  the services and sample types the flame graph holds
//   GET /api/flamegraph?service=S&type=T&window=1m|5m|15m[&compare=1m|5m|15m][&format=json|pprof]
// `type` is a series type ("cpu/nanoseconds") or, when it names one series of the service, its bare
// sample type ("cpu"). Bad query parameters answer 400 with a message; a series with no data 404
// with the service's types (or the services) listed.
// Rates are computed from the component counters: the difference to a snapshot taken at least one
// second and at most 30 seconds before, over the time between them.
#pragma once

#include <array>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/config/service_config.h"
#include "core/net/http_types.h"
#include "core/status/flame_tap.h"
#include "core/telemetry/metrics.h"

namespace proflow::status {

class StatusApi {
 public:
  // `tap` may be null (flame graph disabled); it must outlive this object.
  StatusApi(telemetry::MetricsRegistry& metrics, FlameTap* tap, std::function<bool()> healthy);

  // The running config (at start and after each applied reload): what the page draws.
  void setConfig(std::shared_ptr<const config::ServiceConfig> config);

  // Routes are served through `route(method, path, handler)` (TelemetryServer::route).
  using Route = std::function<void(std::string method, std::string path,
                                   std::function<net::HttpResponse(const net::HttpRequest&)> handler)>;
  void addRoutes(const Route& route);

  net::HttpResponse status();
  net::HttpResponse series();
  net::HttpResponse flamegraph(const net::HttpRequest& request);

 private:
  struct Component {
    std::string kind, id, pipeline;
    telemetry::Labels labels() const;
  };
  // A counter snapshot: component key -> the values rates are taken from.
  struct Snapshot {
    std::chrono::steady_clock::time_point at;
    std::map<std::string, std::array<double, 3>> values;  // profiles, samples, bytes
  };
  std::vector<Component> components(const config::ServiceConfig& cfg) const;
  std::array<double, 3> rateInputs(const Component& c) const;
  void componentJson(std::string& out, const Component& c, const Snapshot& now, const Snapshot* then) const;

  telemetry::MetricsRegistry& metrics_;
  FlameTap* tap_;
  std::function<bool()> healthy_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::mutex mu_;
  std::shared_ptr<const config::ServiceConfig> config_;
  std::deque<Snapshot> history_;
};

// The embedded page assets (generated from core/status/page at build time).
extern const char* const kStatusPageHtml;
extern const char* const kStatusPageCss;
extern const char* const kStatusPageJs;
extern const char* const kStatusPageUnitsJs;

}  // namespace proflow::status
