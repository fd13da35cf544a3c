// The last password verified for each user, remembered so that a slow hash (bcrypt) is computed
// once per credential rather than on every request. Kept as a keyed digest (auth::KeyedDigest:
// HMAC-SHA256 under a random key of the instance), so a memory snapshot does not turn bcrypt back
// into a fast hash for whoever reads it.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "core/auth/keyed_digest.h"

namespace proflow::extensions::basicauth {

class VerifiedCredentials {
 public:
  using Digest = auth::KeyedDigest::Digest;

  // True when `password` is the one last remembered for `user` (constant-time comparison).
  bool matches(const std::string& user, std::string_view password) const;
  void remember(const std::string& user, std::string_view password);
  // What is kept for `user`, for tests.
  std::optional<Digest> digestOf(const std::string& user) const;

 private:
  // user:password is unambiguous: a Basic user name cannot contain ':'.
  Digest digest(std::string_view user, std::string_view password) const {
    return digest_(std::string(user) + ":" + std::string(password));
  }

  auth::KeyedDigest digest_;
  mutable std::mutex mu_;
  std::map<std::string, Digest> verified_;  // bounded by the number of users
};

}  // namespace proflow::extensions::basicauth
