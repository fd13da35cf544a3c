#include "extensions/bearertokenauth/config.h"

namespace proflow::extensions::bearertokenauth {

void BearerTokenAuthConfig::validate(config::ValidationContext& ctx) const {
  if (!token.empty() && !tokens.empty()) ctx.error("tokens", "set either token or tokens, not both");
  if (token.empty() && tokens.empty() && filename.empty())
    ctx.error("", "one of token, tokens or filename is required");
  // A control character would split or corrupt the header; the message never quotes the token.
  auto unusable = [](const std::string& t) { return t.find_first_of("\r\n\t ") != std::string::npos; };
  if (unusable(token)) ctx.error("token", "contains whitespace or a line break");
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].empty()) ctx.error("tokens", "tokens[" + std::to_string(i) + "] is empty");
    if (unusable(tokens[i])) ctx.error("tokens", "tokens[" + std::to_string(i) + "] contains whitespace or a line break");
  }
  if (header.empty() || header.find_first_of(" :\r\n") != std::string::npos)
    ctx.error("header", "'" + header + "' is not a valid header name");
  if (scheme.find_first_of(" \r\n") != std::string::npos) ctx.error("scheme", "must be one word");
}

}  // namespace proflow::extensions::bearertokenauth
