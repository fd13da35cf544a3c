// Puts a server authenticator in front of the shared HTTP server and of gRPC handlers, so every
// receiver authenticates the same way: 401 + WWW-Authenticate / UNAUTHENTICATED before the body is
// read or decoded, counted with reason "unauthenticated".
#pragma once

#include <optional>

#include "core/auth/auth_config.h"
#include "core/net/http_server.h"

namespace proflow::auth {

// Sets `opts->authenticate` and `opts->www_authenticate` from `authenticator` (null: no check).
void protectHttpServer(const ServerAuthenticator* authenticator, net::HttpServerOptions* opts);

// findServerAuthenticator + protectHttpServer: what a receiver's start() calls for its `auth` block.
Status applyServerAuth(Host& host, const std::optional<AuthConfig>& config, net::HttpServerOptions* opts);

}  // namespace proflow::auth
