// `auth: { authenticator: <extension id> }` on a receiver's server block or an exporter's client
// block, and how a component finds the named extension when it starts.
//
//   extensions:
//     bearertokenauth: { token: "${env:TOKEN}" }
//   receivers:
//     otlp:
//       protocols:
//         http: { endpoint: 0.0.0.0:4318, auth: { authenticator: bearertokenauth } }
//   service:
//     extensions: [bearertokenauth]
//
// The reference itself is checked when the config loads (service_config.cc): an id that is not an
// auth extension listed in service.extensions is an error with file:line.
#pragma once

#include <optional>
#include <string>

#include "core/auth/authenticator.h"
#include "core/component/component.h"
#include "core/config/config_reader.h"

namespace proflow::auth {

struct AuthConfig {
  std::string authenticator;  // id of an auth extension, e.g. "bearertokenauth/ingest"
  template <class V>
  void visit(V& v) {
    v.field("authenticator", authenticator, "id of the auth extension (listed in service.extensions)");
  }
};

// The authenticator an `auth` block names, looked up on the host at start(). `out` is left null
// when `config` is absent. Fails (naming the id) when it is not a started auth extension.
Status findServerAuthenticator(Host& host, const std::optional<AuthConfig>& config, const ServerAuthenticator** out);
Status findClientAuthenticator(Host& host, const std::optional<AuthConfig>& config, const ClientAuthenticator** out);

}  // namespace proflow::auth
