#include "extensions/basicauth/config.h"

namespace proflow::extensions::basicauth {

void BasicAuthConfig::validate(config::ValidationContext& ctx) const {
  if (htpasswd && client_auth)
    ctx.error("client_auth", "an instance is either a server (htpasswd) or a client (client_auth), not both");
  if (!htpasswd && !client_auth) ctx.error("", "set htpasswd (server) or client_auth (client)");
  if (htpasswd && htpasswd->file.empty() && htpasswd->inline_entries.empty())
    ctx.error("htpasswd", "set htpasswd.file or htpasswd.inline");
  if (client_auth) {
    if (client_auth->username.empty()) ctx.error("client_auth.username", "required");
    if (client_auth->username.find(':') != std::string::npos)
      ctx.error("client_auth.username", "must not contain ':' (Basic auth separates user and password with it)");
    if (client_auth->password.find_first_of("\r\n") != std::string::npos)
      ctx.error("client_auth.password", "contains a line break");
  }
}

}  // namespace proflow::extensions::basicauth
