#include "core/auth/client_auth.h"

namespace proflow::auth {

void addClientHeaders(const ClientAuthenticator* authenticator, net::HttpHeaders* headers) {
  if (!authenticator) return;
  for (auto& [name, value] : authenticator->requestHeaders()) {
    headers->erase(name);
    headers->emplace(std::move(name), std::move(value));
  }
}

void addClientMetadata(const ClientAuthenticator* authenticator, grpc::ClientContext* ctx) {
  if (!authenticator) return;
  for (const auto& [name, value] : authenticator->requestHeaders()) ctx->AddMetadata(name, value);
}

}  // namespace proflow::auth
