// The self-telemetry endpoint (service.telemetry.metrics): GET /metrics (Prometheus text, or
// OpenMetrics with exemplars when the Accept header asks for application/openmetrics-text),
// GET /healthz (200 when every pipeline runs, else 503), GET / (a short index, unless a route
// replaces it: the status page, core/status/status_api.h) and, once onReload() set a handler,
// POST /-/reload (200 applied, 400 refused with every error).
//
// Who may ask what:
// - With an authenticator (service.telemetry.metrics.auth) every path needs credentials except
//   GET /healthz, which liveness and readiness probes call without any and which tells only "ok"
//   or "unhealthy". Without credentials every other request gets 401, whether its path exists or not.
// - Data and control (the status page and its /api/*: every service's flame graphs; POST /-/reload)
//   are served only when the endpoint is loopback-bound, has an authenticator, or verifies client
//   certificates (tls.client_ca_file). Otherwise they answer 403 naming the fix, and start() logs
//   a warning: a shipped config that listens on 0.0.0.0 never hands out profiles or a reload button.
//   /metrics (counters, no profile data) and /healthz stay served either way.
// - Browsers: a cross-site POST (a form on any web page) is refused with 403, and so, on a loopback
//   address, is a request whose Host is not a loopback name (a DNS name rebound to 127.0.0.1):
//   core/net/request_origin.h.
// Refused requests are counted under receiver="service.telemetry" (no component id has a dot).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>

#include "core/net/http_types.h"

#include "core/util/status.h"
#include "core/telemetry/component_telemetry.h"
#include "core/telemetry/metrics.h"

namespace boost::asio::ssl {
class context;
}

namespace proflow {

namespace net {
class HttpServer;
}
namespace auth {
class ServerAuthenticator;
}

class TelemetryServer {
 public:
  static constexpr const char* kHealthPath = "/healthz";

  struct Options {
    std::string address;  // host:port
    const auth::ServerAuthenticator* authenticator = nullptr;  // null: no credentials asked
    std::shared_ptr<boost::asio::ssl::context> tls;            // null: plain text
    bool tls_verifies_clients = false;  // tls.client_ca_file: a client certificate is a credential
  };
  TelemetryServer(boost::asio::io_context& io, Options options, telemetry::MetricsRegistry& metrics,
                  std::function<bool()> healthy);
  ~TelemetryServer();

  // Answers POST /-/reload: `reload` runs (or queues) a reload and calls its argument, from any
  // thread, with the HTTP status and a text body. Set before start().
  using ReloadHandler = std::function<void(std::function<void(int status, std::string body)> answer)>;
  void onReload(ReloadHandler reload) { reload_ = std::move(reload); }

  // A further route of data (the status page), authenticated like /metrics, its handler run on
  // `executor` (a worker pool: the endpoint's I/O thread is the receivers' too); answered 403 when
  // servesData() is false. Set before start(); a route for "/" replaces the index.
  using Handler = std::function<net::HttpResponse(const net::HttpRequest&)>;
  void route(const std::string& method, const std::string& path, Handler handler,
             boost::asio::any_io_executor executor);

  // False when data and control are off (see the top of this file).
  bool servesData() const { return serves_data_; }

  Status start();
  void stop();
  uint16_t port() const;

 private:
  std::string address_;
  bool serves_data_ = false;
  bool tls_ = false;
  telemetry::MetricsRegistry& metrics_;
  std::function<bool()> healthy_;
  // Requests the endpoint refused (bad requests, unknown paths, missing credentials) are counted
  // like a receiver's: proflow_receiver_http_rejected_requests_total{receiver="service.telemetry"}.
  telemetry::ComponentTelemetry requests_;
  ReloadHandler reload_;
  bool has_index_ = false;
  std::unique_ptr<net::HttpServer> server_;
};

}  // namespace proflow
