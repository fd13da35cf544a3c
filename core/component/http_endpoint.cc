#include "core/component/http_endpoint.h"

#include <spdlog/logger.h>

#include "core/auth/server_auth.h"
#include "core/net/endpoint.h"
#include "core/net/request_origin.h"
#include "core/net/tls_server.h"

namespace proflow {

void HttpEndpointConfig::validate(config::ValidationContext& ctx) const {
  net::Endpoint ep;
  if (Status s = net::parseEndpoint(endpoint, &ep); !s.isOk()) ctx.error("endpoint", s.message());
  if (tls) {
    auto t = ctx.nested("tls");
    tls->validate(t);
  }
}

Status startHttpEndpoint(const CreateSettings& settings, Host& host, const HttpEndpointConfig& config,
                         const std::string& what, const std::function<void(net::HttpServer&)>& add_routes,
                         std::unique_ptr<net::HttpServer>* out) {
  const auth::ServerAuthenticator* authenticator = nullptr;
  if (Status s = auth::findServerAuthenticator(host, config.auth, &authenticator); !s.isOk())
    return Status(s.code(), what + ": " + s.message());
  net::HttpServerOptions opts;
  opts.endpoint = config.endpoint;
  opts.max_request_body_bytes = opts.max_wire_body_bytes = 64 << 10;  // these endpoints take no bodies
  opts.decode_executor = settings.runtime->workers().get_executor();
  if (config.tls) {
    if (Status s = net::makeServerTlsContext(*config.tls, &opts.tls); !s.isOk())
      return Status(s.code(), what + ": " + s.message());
  }
  auth::protectHttpServer(authenticator, &opts);
  opts.screen = net::browserRequestScreen(config.endpoint);
  auto server = std::make_unique<net::HttpServer>(settings.runtime->io(), opts, settings.logger, settings.telemetry);
  add_routes(*server);
  if (Status s = server->start(); !s.isOk()) return Status(s.code(), what + ": " + s.message());
  settings.logger->info("{} listening on {}://{} (port {})", what, config.tls ? "https" : "http", config.endpoint,
                        server->port());
  *out = std::move(server);
  return Status::ok();
}

}  // namespace proflow
