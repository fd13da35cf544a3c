// The `basicauth` extension in its two shapes: a server authenticator that checks
// `Authorization: Basic <base64(user:password)>` against htpasswd entries, and a client
// authenticator that sends it. The factory builds the one its config asks for, so naming a client
// instance on a receiver (or the reverse) fails at start with a clear message.
#pragma once

#include <string>
#include <string_view>

#include "core/auth/authenticator.h"
#include "core/component/factory.h"
#include "extensions/basicauth/check_queue.h"
#include "extensions/basicauth/config.h"
#include "extensions/basicauth/password_book.h"
#include "extensions/basicauth/verified_credentials.h"

namespace proflow::extensions::basicauth {

class BasicAuthServer final : public Extension, public auth::ServerAuthenticator {
 public:
  BasicAuthServer(const CreateSettings& settings, HtpasswdConfig config);

  // Reads the htpasswd file and inline entries; fails naming the file and line of a bad entry.
  Status start(Host& host) override;
  void shutdown(Deadline) override { checks_.stop(); }

  Status authenticate(const auth::HeaderLookup& header) const override;
  // A credential verified before is answered at once, never queued: a verified user does not wait
  // behind anyone's unverified checks. Any other is hashed on the check queue, in `client`'s turn.
  void authenticateAsync(const auth::HeaderLookup& header, std::string_view client,
                         std::function<void(Status)> done) const override;
  std::string challenge() const override { return "Basic realm=\"proflow\", charset=\"UTF-8\""; }

  // Checks that may wait in all; beyond it a check is refused UNAVAILABLE (503 + Retry-After),
  // unless it can take the place of one from a client with more waiting.
  static constexpr size_t kQueuedChecks = 64;
  // Checks one client (address, or IPv6 /64) may have waiting or running.
  static constexpr size_t kChecksPerClient = 4;

 private:
  struct Credentials {
    std::string user;
    std::string password;
  };
  // The user and password of an `Authorization: Basic` header, or why there are none.
  static Status parse(const auth::HeaderLookup& header, Credentials* out);
  // The full check (PasswordBook::check), remembering a verified credential.
  bool verify(const Credentials& c) const;

  CreateSettings settings_;
  HtpasswdConfig config_;
  PasswordBook users_;  // fixed after start()
  mutable VerifiedCredentials verified_;
  // Declared last, so destroyed first: its destructor joins the check thread while everything a
  // running check reads and writes (users_, verified_) is still alive, shut down or not.
  mutable CheckQueue checks_{kQueuedChecks, kChecksPerClient};
};

class BasicAuthClient final : public Extension, public auth::ClientAuthenticator {
 public:
  explicit BasicAuthClient(const ClientAuthConfig& config);
  Status start(Host&) override { return Status::ok(); }
  void shutdown(Deadline) override {}
  auth::HeaderList requestHeaders() const override { return {{"authorization", header_value_}}; }

 private:
  std::string header_value_;  // "Basic <base64>", never logged
};

}  // namespace proflow::extensions::basicauth
