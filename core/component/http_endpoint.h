// The HTTP server side every component with a small HTTP surface shares (the health_check, pprof
// and zpages extensions): the Collector's server settings `endpoint`, `tls` and `auth` at the top
// of the component's config, and one start-up that applies them the same way everywhere: TLS,
// the authenticator named by `auth`, the browser screen (core/net/request_origin.h).
//
//   extensions:
//     health_check:
//       endpoint: localhost:13133
//       tls: { cert_file: server.pem, key_file: server.key }   # optional
//       auth: { authenticator: basicauth/probes }              # optional
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/auth/auth_config.h"
#include "core/component/factory.h"
#include "core/config/config_reader.h"
#include "core/net/http_server.h"
#include "core/net/tls_config.h"

namespace proflow {

struct HttpEndpointConfig {
  std::string endpoint;
  std::optional<net::TlsServerConfig> tls;
  std::optional<auth::AuthConfig> auth;

  explicit HttpEndpointConfig(std::string default_endpoint = "") : endpoint(std::move(default_endpoint)) {}

  // Adds the three keys to the visiting component's config.
  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "host:port to listen on (localhost: loopback only)");
    v.field("tls", tls, "serve TLS with this certificate (absent = plain text)");
    v.field("auth", auth, "authenticate requests: { authenticator: <extension id> }");
  }
  void validate(config::ValidationContext& ctx) const;
};

// Builds the server for `config`, lets `add_routes` add its routes, and starts it; `what` names the
// component in errors and the log line.
Status startHttpEndpoint(const CreateSettings& settings, Host& host, const HttpEndpointConfig& config,
                         const std::string& what, const std::function<void(net::HttpServer&)>& add_routes,
                         std::unique_ptr<net::HttpServer>* out);

}  // namespace proflow
