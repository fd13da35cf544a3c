#include "core/auth/auth_config.h"

namespace proflow::auth {
namespace {

template <class T>
Status findAuthenticator(Host& host, const std::optional<AuthConfig>& config, const char* role, const T** out) {
  *out = nullptr;
  if (!config) return Status::ok();
  auto id = ComponentId::parse(config->authenticator);
  Component* ext = id ? host.extension(*id) : nullptr;
  if (!ext)
    return Status::invalid("auth.authenticator '" + config->authenticator +
                           "' is not a running extension (define it under extensions: and list it in service.extensions)");
  *out = dynamic_cast<const T*>(ext);
  if (!*out)
    return Status::invalid("auth.authenticator '" + config->authenticator + "' cannot authenticate " + role);
  return Status::ok();
}

}  // namespace

Status findServerAuthenticator(Host& host, const std::optional<AuthConfig>& config, const ServerAuthenticator** out) {
  return findAuthenticator(host, config, "incoming requests (configure it for server use)", out);
}

Status findClientAuthenticator(Host& host, const std::optional<AuthConfig>& config, const ClientAuthenticator** out) {
  return findAuthenticator(host, config, "outgoing requests (configure it for client use)", out);
}

bool constantTimeEquals(std::string_view a, std::string_view b) {
  // Walks the longer input whatever the contents; the length difference still counts as a mismatch.
  const size_t n = std::max(a.size(), b.size());
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < n; ++i) {
    unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned char>(x ^ y);
  }
  return diff == 0;
}

}  // namespace proflow::auth
