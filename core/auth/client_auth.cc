#include "core/auth/client_auth.h"

namespace proflow::auth {

void ClientAuthenticator::editRequestHeaders(const ClientMetadata*, HeaderList& headers) const {
  for (auto& header : requestHeaders()) {
    std::erase_if(headers, [&header](const auto& h) { return h.first == header.first; });
    headers.push_back(std::move(header));
  }
}

void addClientHeaders(const ClientAuthenticator* authenticator, const ClientMetadata* context,
                      net::HttpHeaders* headers) {
  if (!authenticator) return;
  HeaderList list;
  for (const auto& [name, value] : *headers) list.emplace_back(lowerAscii(name), value);
  authenticator->editRequestHeaders(context, list);
  headers->clear();
  for (auto& [name, value] : list) headers->emplace(std::move(name), std::move(value));
}

void addClientMetadata(const ClientAuthenticator* authenticator, const ClientMetadata* context,
                       const std::map<std::string, std::string>& static_headers, grpc::ClientContext* ctx) {
  HeaderList list;
  for (const auto& [name, value] : static_headers) list.emplace_back(lowerAscii(name), value);
  if (authenticator) authenticator->editRequestHeaders(context, list);
  for (const auto& [name, value] : list) ctx->AddMetadata(name, value);
}

}  // namespace proflow::auth
