#include "extensions/basicauth/config.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "extensions/basicauth/htpasswd.h"

namespace proflow::extensions::basicauth {

Status HtpasswdConfig::loadUsers(std::map<std::string, std::string>* users) const {
  if (!file.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
      return Status::invalid("htpasswd file '" + file + "' does not exist or is not a regular file");
    std::ifstream in(file, std::ios::binary);
    if (!in) return Status::invalid("cannot read htpasswd file '" + file + "'");
    std::ostringstream text;
    text << in.rdbuf();
    if (Status s = parseHtpasswd(text.str(), file, users); !s.isOk()) return s;
  }
  if (Status s = parseHtpasswd(inline_entries, "htpasswd.inline", users); !s.isOk()) return s;
  if (users->empty()) return Status::invalid("htpasswd has no users");
  return Status::ok();
}

void BasicAuthConfig::validate(config::ValidationContext& ctx) const {
  if (htpasswd && client_auth)
    ctx.error("client_auth", "an instance is either a server (htpasswd) or a client (client_auth), not both");
  if (!htpasswd && !client_auth) ctx.error("", "set htpasswd (server) or client_auth (client)");
  if (htpasswd && htpasswd->file.empty() && htpasswd->inline_entries.empty()) {
    ctx.error("htpasswd", "set htpasswd.file or htpasswd.inline");
  } else if (htpasswd) {
    std::map<std::string, std::string> users;
    if (Status s = htpasswd->loadUsers(&users); !s.isOk())
      ctx.error(htpasswd->file.empty() ? "htpasswd.inline" : "htpasswd.file", s.message());
  }
  if (client_auth) {
    if (client_auth->username.empty()) ctx.error("client_auth.username", "required");
    if (client_auth->username.find(':') != std::string::npos)
      ctx.error("client_auth.username", "must not contain ':' (Basic auth separates user and password with it)");
    if (client_auth->password.find_first_of("\r\n") != std::string::npos)
      ctx.error("client_auth.password", "contains a line break");
  }
}

}  // namespace proflow::extensions::basicauth
