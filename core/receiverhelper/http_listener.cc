#include "core/receiverhelper/http_listener.h"

#include "core/auth/server_auth.h"
#include "core/net/endpoint.h"
#include "core/net/receiver_server.h"
#include "core/runtime/runtime.h"

namespace proflow::receiverhelper {

ClientMetadataPtr requestMetadata(const net::HttpRequest& request) {
  auto kept = std::make_shared<ClientMetadata>();
  for (const auto& [name, value] : request.headers) kept->add(name, value);
  return kept;
}

void HttpListenerConfig::validateListener(config::ValidationContext& ctx, bool endpoint_optional) const {
  if (!endpoint.empty() || !endpoint_optional) {
    net::Endpoint ep;
    if (Status s = net::parseEndpoint(endpoint, &ep); !s.isOk()) ctx.error("endpoint", s.message());
  }
  if (max_request_body_size.bytes == 0) ctx.error("max_request_body_size", "must be greater than 0");
  if (!(max_inflate_ratio >= 1)) ctx.error("max_inflate_ratio", "must be at least 1");
  server_limits.validate(ctx, max_request_body_size.bytes);
  if (tls) {
    auto t = ctx.nested("tls");
    tls->validate(t);
  }
}

Status makeListener(Host& host, const CreateSettings& settings, const HttpListenerConfig& config,
                    std::unique_ptr<net::HttpServer>* out) {
  net::HttpServerOptions opts;
  if (Status s = net::receiverServerOptions(config.endpoint, config.max_request_body_size.bytes,
                                            config.max_inflate_ratio, config.tls,
                                            settings.runtime->workers().get_executor(), &opts);
      !s.isOk())
    return s;
  if (Status s = auth::applyServerAuth(host, config.auth, &opts); !s.isOk()) return s;
  config.server_limits.apply(config.server_limits.makeBudget(), &opts);
  *out = std::make_unique<net::HttpServer>(settings.runtime->io(), opts, settings.logger, settings.telemetry);
  return Status::ok();
}

}  // namespace proflow::receiverhelper
