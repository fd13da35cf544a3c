// The `basicauth` extension in its two shapes: a server authenticator that checks
// `Authorization: Basic <base64(user:password)>` against htpasswd entries, and a client
// authenticator that sends it. The factory builds the one its config asks for, so naming a client
// instance on a receiver (or the reverse) fails at start with a clear message.
#pragma once

#include <array>
#include <map>
#include <mutex>
#include <string>

#include "core/auth/authenticator.h"
#include "core/component/factory.h"
#include "extensions/basicauth/check_queue.h"
#include "extensions/basicauth/config.h"

namespace proflow::extensions::basicauth {

class BasicAuthServer final : public Extension, public auth::ServerAuthenticator {
 public:
  BasicAuthServer(const CreateSettings& settings, HtpasswdConfig config);

  // Reads the htpasswd file and inline entries; fails naming the file and line of a bad entry.
  Status start(Host& host) override;
  void shutdown(Deadline) override { checks_.stop(); }

  Status authenticate(const auth::HeaderLookup& header) const override;
  // A credential verified before is answered at once; any other is hashed on the check queue.
  void authenticateAsync(const auth::HeaderLookup& header, std::function<void(Status)> done) const override;
  std::string challenge() const override { return "Basic realm=\"proflow\", charset=\"UTF-8\""; }

  // Checks that may wait or run at once; beyond it a check is refused UNAVAILABLE (503 + Retry-After).
  static constexpr size_t kQueuedChecks = 16;

 private:
  using Digest = std::array<unsigned char, 32>;
  struct Credentials {
    std::string user;
    std::string password;
  };
  static Digest fingerprint(std::string_view user, std::string_view password);
  // The user and password of an `Authorization: Basic` header, or why there are none.
  static Status parse(const auth::HeaderLookup& header, Credentials* out);
  // True when this user's password was verified before (a hash of a few bytes).
  bool verifiedBefore(const Credentials& c) const;
  // The full check. An unknown user costs the same as a known one: its password is hashed against
  // the slowest entry's hash and refused whatever the result, so timing does not tell names apart.
  bool verify(const Credentials& c) const;

  CreateSettings settings_;
  HtpasswdConfig config_;
  std::map<std::string, std::string> users_;  // user -> hash, fixed after start()
  std::string unknown_user_hash_;              // checked for users not in users_
  // Last verified password per user (SHA-256 of user:password), so a slow hash such as bcrypt is
  // computed once per credential rather than on every request. Bounded by the number of users.
  mutable std::mutex mu_;
  mutable std::map<std::string, Digest> verified_;
  // Declared last, so destroyed first: its destructor joins the check thread while everything a
  // running check reads and writes (users_, mu_, verified_) is still alive, shut down or not.
  mutable CheckQueue checks_{kQueuedChecks};
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
