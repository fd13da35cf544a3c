// Adds an exporter's client credentials (the authenticator its `auth` block names) to each request,
// asked for per request so rotated credentials are used as soon as the extension sees them.
#pragma once

#include <grpcpp/client_context.h>

#include "core/auth/authenticator.h"
#include "core/net/http_types.h"

namespace proflow::auth {

// No-ops when `authenticator` is null. A header the authenticator sets replaces one of the same name
// from the exporter's `headers`, so a static `authorization` cannot shadow the extension's.
void addClientHeaders(const ClientAuthenticator* authenticator, net::HttpHeaders* headers);
void addClientMetadata(const ClientAuthenticator* authenticator, grpc::ClientContext* ctx);

}  // namespace proflow::auth
