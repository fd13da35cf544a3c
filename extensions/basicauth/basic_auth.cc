#include "extensions/basicauth/basic_auth.h"

#include <openssl/evp.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "core/util/ascii.h"
#include "extensions/basicauth/base64.h"
#include "extensions/basicauth/htpasswd.h"

namespace proflow::extensions::basicauth {
namespace {

constexpr std::string_view kBasic = "Basic ";

Status unauthenticated(std::string why) { return Status(StatusCode::kUnauthenticated, std::move(why)); }

}  // namespace

BasicAuthServer::BasicAuthServer(const CreateSettings& settings, HtpasswdConfig config)
    : settings_(settings), config_(std::move(config)) {}

Status BasicAuthServer::start(Host&) {
  users_.clear();
  if (!config_.file.empty()) {
    std::ifstream in(config_.file, std::ios::binary);
    if (!in) return Status::invalid("cannot read htpasswd file '" + config_.file + "'");
    std::ostringstream text;
    text << in.rdbuf();
    if (Status s = parseHtpasswd(text.str(), config_.file, &users_); !s.isOk()) return s;
  }
  if (Status s = parseHtpasswd(config_.inline_entries, "htpasswd.inline", &users_); !s.isOk()) return s;
  if (users_.empty()) return Status::invalid("htpasswd has no users");
  unknown_user_hash_ = slowestHash(users_);
  settings_.logger->info("basic auth: {} user(s)", users_.size());
  return Status::ok();
}

BasicAuthServer::Digest BasicAuthServer::fingerprint(std::string_view user, std::string_view password) {
  Digest d{};
  unsigned int n = 0;
  std::string input = std::string(user) + ":" + std::string(password);
  EVP_Digest(input.data(), input.size(), d.data(), &n, EVP_sha256(), nullptr);
  return d;
}

bool BasicAuthServer::verifiedBefore(const Credentials& c) const {
  if (users_.find(c.user) == users_.end()) return false;
  const Digest print = fingerprint(c.user, c.password);
  std::lock_guard lock(mu_);
  auto it = verified_.find(c.user);
  return it != verified_.end() &&
         auth::constantTimeEquals(std::string_view(reinterpret_cast<const char*>(it->second.data()), it->second.size()),
                                  std::string_view(reinterpret_cast<const char*>(print.data()), print.size()));
}

bool BasicAuthServer::verify(const Credentials& c) const {
  auto entry = users_.find(c.user);
  if (entry == users_.end()) {
    (void)verifyPassword(c.password, unknown_user_hash_);
    return false;
  }
  if (!verifyPassword(c.password, entry->second)) return false;
  std::lock_guard lock(mu_);
  verified_[c.user] = fingerprint(c.user, c.password);
  return true;
}

Status BasicAuthServer::parse(const auth::HeaderLookup& header, Credentials* out) {
  auto value = header("authorization");
  if (!value) return unauthenticated("missing Authorization header");
  if (!istartsWith(*value, kBasic)) return unauthenticated("Authorization is not Basic credentials");
  auto decoded = base64Decode(value->substr(kBasic.size()));
  if (!decoded) return unauthenticated("Basic credentials are not valid base64");
  const size_t colon = decoded->find(':');
  if (colon == std::string::npos) return unauthenticated("Basic credentials are not user:password");
  out->user = decoded->substr(0, colon);
  out->password = decoded->substr(colon + 1);
  return Status::ok();
}

Status BasicAuthServer::authenticate(const auth::HeaderLookup& header) const {
  Credentials c;
  if (Status s = parse(header, &c); !s.isOk()) return s;
  if (verifiedBefore(c) || verify(c)) return Status::ok();
  return unauthenticated("invalid user or password");
}

void BasicAuthServer::authenticateAsync(const auth::HeaderLookup& header, std::function<void(Status)> done) const {
  Credentials c;
  if (Status s = parse(header, &c); !s.isOk()) return done(s);
  if (verifiedBefore(c)) return done(Status::ok());
  auto check = [this, c = std::move(c), done](bool run) {
    if (!run) return done(Status::unavailable("basic auth is stopping").withRetryAfter(std::chrono::seconds(1)));
    done(verify(c) ? Status::ok() : unauthenticated("invalid user or password"));
  };
  if (!checks_.trySubmit(std::move(check)))
    done(Status::unavailable("too many password checks in progress; retry later").withRetryAfter(std::chrono::seconds(1)));
}

BasicAuthClient::BasicAuthClient(const ClientAuthConfig& config)
    : header_value_(std::string(kBasic) + base64Encode(config.username + ":" + config.password)) {}

}  // namespace proflow::extensions::basicauth
