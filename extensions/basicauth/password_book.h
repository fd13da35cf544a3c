// The htpasswd users and how a password is checked against them so that a refusal does not tell
// whether the user exists. Unknown users cannot simply cost what known ones do: known users differ
// among themselves (a bcrypt entry takes hundreds of milliseconds, a {SHA} entry a fraction of one),
// so whatever single cost unknown users were given would match at most one format, and a cheap one
// would also make guessing names cheap. So every refusal costs at least a check against the slowest
// entry: an unknown user's password is checked against it, and a known user's wrong password, when
// the user's own entry is of a faster format, is checked against it as well. What is left is the
// faster entry's own time (a fraction of a millisecond for {SHA}, within the slow hash's jitter).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace proflow::extensions::basicauth {

class PasswordBook {
 public:
  // A password check (verifyPassword in production).
  using Verifier = std::function<bool(std::string_view password, const std::string& hash)>;

  PasswordBook() = default;
  // Times one check of each format (slowestHash) to find what refusals are checked against.
  explicit PasswordBook(std::map<std::string, std::string> users);

  bool contains(const std::string& user) const { return users_.count(user) != 0; }
  size_t size() const { return users_.size(); }

  // True when `password` is `user`'s; a refusal costs at least a check against the slowest entry.
  bool check(const std::string& user, std::string_view password) const;
  bool check(const std::string& user, std::string_view password, const Verifier& verify) const;

 private:
  std::map<std::string, std::string> users_;  // user -> hash
  std::string slowest_hash_;
  std::string slowest_format_;
};

}  // namespace proflow::extensions::basicauth
