#include "extensions/basicauth/verified_credentials.h"

#include "core/auth/authenticator.h"

namespace proflow::extensions::basicauth {

bool VerifiedCredentials::matches(const std::string& user, std::string_view password) const {
  const Digest print = digest(user, password);
  std::lock_guard lock(mu_);
  auto it = verified_.find(user);
  return it != verified_.end() &&
         auth::constantTimeEquals(std::string_view(reinterpret_cast<const char*>(it->second.data()), it->second.size()),
                                  std::string_view(reinterpret_cast<const char*>(print.data()), print.size()));
}

void VerifiedCredentials::remember(const std::string& user, std::string_view password) {
  const Digest print = digest(user, password);
  std::lock_guard lock(mu_);
  verified_[user] = print;
}

std::optional<VerifiedCredentials::Digest> VerifiedCredentials::digestOf(const std::string& user) const {
  std::lock_guard lock(mu_);
  auto it = verified_.find(user);
  if (it == verified_.end()) return std::nullopt;
  return it->second;
}

}  // namespace proflow::extensions::basicauth
