// Adds an exporter's client credentials (the authenticator its `auth` block names) to each request,
// asked for per request so rotated credentials are used as soon as the extension sees them.
#pragma once

#include <grpcpp/client_context.h>

#include <map>
#include <string>

#include "core/auth/authenticator.h"
#include "core/net/http_types.h"

namespace proflow::auth {

// `headers` (HTTP) or `static_headers` (gRPC) are the exporter's own; the authenticator, when there is
// one, edits them for the data's `context` (ClientAuthenticator::editRequestHeaders): a header it sets
// replaces one of the same name, so a static `authorization` cannot shadow the extension's. gRPC
// metadata keys are sent lower case (gRPC refuses others), so `X-Scope-OrgID` works as written.
void addClientHeaders(const ClientAuthenticator* authenticator, const ClientMetadata* context,
                      net::HttpHeaders* headers);
void addClientMetadata(const ClientAuthenticator* authenticator, const ClientMetadata* context,
                       const std::map<std::string, std::string>& static_headers, grpc::ClientContext* ctx);

}  // namespace proflow::auth
