#include "extensions/bearertokenauth/bearer_token_auth.h"

#include "core/util/ascii.h"

namespace proflow::extensions::bearertokenauth {

BearerTokenAuth::BearerTokenAuth(const CreateSettings& settings, BearerTokenAuthConfig config)
    : settings_(settings), config_(std::move(config)) {}

Status BearerTokenAuth::start(Host&) {
  if (!config_.filename.empty()) {
    if (Status s = TokenSource::fromFile(config_.filename, &tokens_); !s.isOk()) return s;
    settings_.logger->info("bearer token(s) from {}, re-read when it changes", config_.filename);
    return Status::ok();
  }
  tokens_ = std::make_unique<TokenSource>(config_.tokens.empty() ? Tokens{config_.token} : config_.tokens);
  return Status::ok();
}

std::string BearerTokenAuth::expectedValue(const std::string& token) const {
  return config_.scheme.empty() ? token : config_.scheme + " " + token;
}

Status BearerTokenAuth::authenticate(const auth::HeaderLookup& header) const {
  auto value = header(config_.header);
  if (!value) return Status(StatusCode::kUnauthenticated, "missing " + config_.header + " header");
  bool match = false;
  // Held for the whole loop: the refresher may replace the tokens meanwhile, and a range-for over
  // `*current()` would keep only the vector's reference, not the pointer that keeps it alive.
  const std::shared_ptr<const Tokens> tokens = tokens_->current();
  // Every token is compared, so the time taken does not tell which one (if any) matched.
  for (const auto& token : *tokens) match |= auth::constantTimeEquals(*value, expectedValue(token));
  if (match) return Status::ok();
  return Status(StatusCode::kUnauthenticated, "invalid " + config_.header + " credentials");
}

std::string BearerTokenAuth::challenge() const {
  return (config_.scheme.empty() ? std::string("Bearer") : config_.scheme) + " realm=\"proflow\"";
}

auth::HeaderList BearerTokenAuth::requestHeaders() const {
  return {{toLowerAscii(config_.header), expectedValue(tokens_->current()->front())}};
}

}  // namespace proflow::extensions::bearertokenauth
