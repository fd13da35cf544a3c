#include "core/auth/server_auth.h"

#include "core/net/peer_address.h"

namespace proflow::auth {

void protectHttpServer(const ServerAuthenticator* authenticator, net::HttpServerOptions* opts) {
  if (!authenticator) return;
  opts->www_authenticate = authenticator->challenge();
  // Asynchronous: a password hash runs on the authenticator's own thread, never on the I/O thread.
  opts->authenticate = [authenticator](const net::HttpRequest& head, net::AuthDone done) {
    authenticator->authenticateAsync(
        [&head](std::string_view name) -> std::optional<std::string_view> {
          auto it = head.headers.find(name);
          if (it == head.headers.end()) return std::nullopt;
          return std::string_view(it->second);
        },
        net::clientGroup(head.remote_address), std::move(done));
  };
}

Status applyServerAuth(Host& host, const std::optional<AuthConfig>& config, net::HttpServerOptions* opts) {
  const ServerAuthenticator* authenticator = nullptr;
  if (Status s = findServerAuthenticator(host, config, &authenticator); !s.isOk()) return s;
  protectHttpServer(authenticator, opts);
  return Status::ok();
}

}  // namespace proflow::auth
