#include "extensions/basicauth/basic_auth.h"

#include <chrono>

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
  std::map<std::string, std::string> users;
  if (Status s = config_.loadUsers(&users); !s.isOk()) return s;
  users_ = PasswordBook(std::move(users));
  settings_.logger->info("basic auth: {} user(s)", users_.size());
  return Status::ok();
}

bool BasicAuthServer::verify(const Credentials& c) const {
  if (!users_.check(c.user, c.password)) return false;
  verified_.remember(c.user, c.password);
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
  if (verified_.matches(c.user, c.password) || verify(c)) return Status::ok();
  return unauthenticated("invalid user or password");
}

void BasicAuthServer::authenticateAsync(const auth::HeaderLookup& header, std::string_view client,
                                        std::function<void(Status)> done) const {
  Credentials c;
  if (Status s = parse(header, &c); !s.isOk()) return done(s);
  if (verified_.matches(c.user, c.password)) return done(Status::ok());
  auto check = [this, c = std::move(c), done](bool run) {
    if (!run)
      return done(Status::unavailable("password check not made (too many checks waiting, or stopping); retry later")
                      .withRetryAfter(std::chrono::seconds(1)));
    done(verify(c) ? Status::ok() : unauthenticated("invalid user or password"));
  };
  if (!checks_.trySubmit(std::string(client), std::move(check)))
    done(Status::unavailable("too many password checks in progress; retry later").withRetryAfter(std::chrono::seconds(1)));
}

BasicAuthClient::BasicAuthClient(const ClientAuthConfig& config)
    : header_value_(std::string(kBasic) + base64Encode(config.username + ":" + config.password)) {}

}  // namespace proflow::extensions::basicauth
