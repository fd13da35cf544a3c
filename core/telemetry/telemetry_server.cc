#include "core/telemetry/telemetry_server.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "core/auth/server_auth.h"
#include "core/net/http_server.h"
#include "core/net/loopback.h"
#include "core/net/request_origin.h"

namespace proflow {
namespace {

bool isOpenPath(const net::HttpRequest& head) {
  return (head.method == "GET" || head.method == "HEAD") && head.path == TelemetryServer::kHealthPath;
}

// Why data and control are off, and how to turn them on.
std::string dataOffReason(const std::string& address) {
  return "the telemetry endpoint listens on " + address +
         ", which is not a loopback address, without an authenticator: set service.telemetry.metrics.auth "
         "(e.g. a basicauth extension) or tls.client_ca_file, or bind it to 127.0.0.1";
}

net::HttpResponse refusedForExposure(const std::string& address) {
  return net::HttpResponse::text(403, "off: " + dataOffReason(address) + "\n");
}

}  // namespace

TelemetryServer::TelemetryServer(boost::asio::io_context& io, Options options, telemetry::MetricsRegistry& metrics,
                                 std::function<bool()> healthy)
    : address_(std::move(options.address)),
      serves_data_(options.authenticator || options.tls_verifies_clients || net::isLoopbackEndpoint(address_)),
      metrics_(metrics),
      healthy_(std::move(healthy)),
      requests_(metrics, ComponentKind::kReceiver, "service.telemetry") {
  net::HttpServerOptions opts;
  opts.endpoint = address_;
  opts.max_request_body_bytes = 4096;  // GET only
  opts.max_wire_body_bytes = 4096;
  opts.max_connections = 64;
  tls_ = options.tls != nullptr;
  opts.tls = std::move(options.tls);
  // A web page must not reload the daemon nor, through a rebound DNS name, read its data.
  opts.screen = net::browserRequestScreen(address_);
  auth::protectHttpServer(options.authenticator, &opts);
  if (opts.authenticate) {
    // Kubernetes probes carry no credentials: the health answer (ok / unhealthy, nothing else) is
    // open; /metrics, the index and every other path need them.
    opts.authenticate = [check = std::move(opts.authenticate)](const net::HttpRequest& head, net::AuthDone done) {
      if (isOpenPath(head)) return done(Status::ok());
      check(head, std::move(done));
    };
  }
  server_ = std::make_unique<net::HttpServer>(io, opts, spdlog::default_logger(), &requests_);
  server_->route("GET", "/metrics", [this](net::HttpRequest&& req, net::Responder respond) {
    // OpenMetrics (with exemplars) when the scraper asks for it, as Prometheus does; else text.
    const auto format = telemetry::negotiateExposition(req.header("Accept"));
    net::HttpResponse r;
    r.content_type = telemetry::expositionContentType(format);
    r.body = metrics_.render(format);
    respond(std::move(r));
  });
  server_->route("GET", kHealthPath, [this](net::HttpRequest&&, net::Responder respond) {
    bool ok = healthy_();
    respond(net::HttpResponse::text(ok ? 200 : 503, ok ? "ok\n" : "unhealthy: a pipeline is not running\n"));
  });
  server_->route("POST", "/-/reload", [this](net::HttpRequest&&, net::Responder respond) {
    if (!serves_data_) return respond(refusedForExposure(address_));
    if (!reload_) return respond(net::HttpResponse::text(404, "reload is not available\n"));
    reload_([respond](int status, std::string body) { respond(net::HttpResponse::text(status, std::move(body))); });
  });
}

void TelemetryServer::route(const std::string& method, const std::string& path, Handler handler,
                            boost::asio::any_io_executor executor) {
  if (!serves_data_) {
    // The index below says why; every other path of the page answers the same.
    if (path != "/")
      server_->route(method, path, [this](net::HttpRequest&&, net::Responder respond) {
        respond(refusedForExposure(address_));
      });
    return;
  }
  if (path == "/") has_index_ = true;
  server_->route(method, path, [handler = std::move(handler), executor](net::HttpRequest&& req, net::Responder respond) {
    boost::asio::post(executor, [handler, req = std::move(req), respond]() { respond(handler(req)); });
  });
}

TelemetryServer::~TelemetryServer() { stop(); }

Status TelemetryServer::start() {
  if (!has_index_) {
    has_index_ = true;
    std::string index = "proflow " PROFLOW_VERSION "\n/metrics  Prometheus metrics\n/healthz  health\n";
    if (!serves_data_) index += "The status page and POST /-/reload are " + refusedForExposure(address_).body;
    server_->route("GET", "/", [index](net::HttpRequest&&, net::Responder respond) {
      respond(net::HttpResponse::text(200, index));
    });
  }
  Status s = server_->start();
  if (!s.isOk()) return s;
  spdlog::info("telemetry: {}://{}/metrics (port {})", tls_ ? "https" : "http", address_,
               server_->port());
  if (!serves_data_)
    spdlog::warn("telemetry: the status page's data (/api/*) and POST /-/reload are off: {}", dataOffReason(address_));
  return s;
}

void TelemetryServer::stop() { server_->stop(); }

uint16_t TelemetryServer::port() const { return server_->port(); }

}  // namespace proflow
