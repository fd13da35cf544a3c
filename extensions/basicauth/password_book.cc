#include "extensions/basicauth/password_book.h"

#include "extensions/basicauth/htpasswd.h"

namespace proflow::extensions::basicauth {

PasswordBook::PasswordBook(std::map<std::string, std::string> users)
    : users_(std::move(users)), slowest_hash_(slowestHash(users_)), slowest_format_(hashFormat(slowest_hash_)) {}

bool PasswordBook::check(const std::string& user, std::string_view password) const {
  return check(user, password, verifyPassword);
}

bool PasswordBook::check(const std::string& user, std::string_view password, const Verifier& verify) const {
  auto entry = users_.find(user);
  if (entry == users_.end()) {
    (void)verify(password, slowest_hash_);
    return false;
  }
  if (verify(password, entry->second)) return true;
  if (hashFormat(entry->second) != slowest_format_) (void)verify(password, slowest_hash_);
  return false;
}

}  // namespace proflow::extensions::basicauth
