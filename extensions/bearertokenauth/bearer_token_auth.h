// The `bearertokenauth` extension: as a server authenticator it requires `<header>: <scheme> <token>`
// with one of its tokens (compared in constant time); as a client authenticator it sends that header.
#pragma once

#include <memory>

#include "core/auth/authenticator.h"
#include "core/component/factory.h"
#include "extensions/bearertokenauth/config.h"
#include "extensions/bearertokenauth/token_source.h"

namespace proflow::extensions::bearertokenauth {

class BearerTokenAuth final : public Extension, public auth::ServerAuthenticator, public auth::ClientAuthenticator {
 public:
  BearerTokenAuth(const CreateSettings& settings, BearerTokenAuthConfig config);

  Status start(Host& host) override;
  void shutdown(Deadline) override {}

  Status authenticate(const auth::HeaderLookup& header) const override;
  std::string challenge() const override;
  auth::HeaderList requestHeaders() const override;

 private:
  std::string expectedValue(const std::string& token) const;

  CreateSettings settings_;
  BearerTokenAuthConfig config_;
  std::unique_ptr<TokenSource> tokens_;
};

}  // namespace proflow::extensions::bearertokenauth
