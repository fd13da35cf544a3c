#include "core/telemetry/telemetry_server.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "core/auth/server_auth.h"
#include "core/net/http_server.h"

namespace proflow {
namespace {

bool isOpenPath(const net::HttpRequest& head) {
  return (head.method == "GET" || head.method == "HEAD") && head.path == TelemetryServer::kHealthPath;
}

}  // namespace

TelemetryServer::TelemetryServer(boost::asio::io_context& io, std::string address, telemetry::MetricsRegistry& metrics,
                                 std::function<bool()> healthy, const auth::ServerAuthenticator* authenticator)
    : address_(std::move(address)),
      metrics_(metrics),
      healthy_(std::move(healthy)),
      requests_(metrics, ComponentKind::kReceiver, "service.telemetry") {
  net::HttpServerOptions opts;
  opts.endpoint = address_;
  opts.max_request_body_bytes = 4096;  // GET only
  opts.max_wire_body_bytes = 4096;
  opts.max_connections = 64;
  auth::protectHttpServer(authenticator, &opts);
  if (opts.authenticate) {
    // Kubernetes probes carry no credentials: the health answer (ok / unhealthy, nothing else) is
    // open; /metrics, the index and every other path need them.
    opts.authenticate = [check = std::move(opts.authenticate)](const net::HttpRequest& head) {
      if (isOpenPath(head)) return Status::ok();
      return check(head);
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
    if (!reload_) return respond(net::HttpResponse::text(404, "reload is not available\n"));
    reload_([respond](int status, std::string body) { respond(net::HttpResponse::text(status, std::move(body))); });
  });
}

void TelemetryServer::route(const std::string& method, const std::string& path, Handler handler,
                            boost::asio::any_io_executor executor) {
  if (path == "/") has_index_ = true;
  server_->route(method, path, [handler = std::move(handler), executor](net::HttpRequest&& req, net::Responder respond) {
    boost::asio::post(executor, [handler, req = std::move(req), respond]() { respond(handler(req)); });
  });
}

TelemetryServer::~TelemetryServer() { stop(); }

Status TelemetryServer::start() {
  if (!has_index_) {
    has_index_ = true;
    server_->route("GET", "/", [](net::HttpRequest&&, net::Responder respond) {
      respond(net::HttpResponse::text(200, "proflow " PROFLOW_VERSION "\n/metrics  Prometheus metrics\n/healthz  health\n"));
    });
  }
  Status s = server_->start();
  if (s.isOk()) spdlog::info("telemetry: http://{}/metrics (port {})", address_, server_->port());
  return s;
}

void TelemetryServer::stop() { server_->stop(); }

uint16_t TelemetryServer::port() const { return server_->port(); }

}  // namespace proflow
