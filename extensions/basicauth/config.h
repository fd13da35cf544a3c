// Config of the `basicauth` extension: HTTP Basic authentication. A server instance checks
// credentials against htpasswd entries; a client instance sends a username and password. One
// instance is one or the other.
//
//   extensions:
//     basicauth/server:
//       htpasswd:
//         file: /etc/proflow/.htpasswd     # bcrypt, SHA-crypt, MD5-crypt, APR1 or {SHA} entries
//         inline: |
//           agent:$2y$10$...
//     basicauth/client:
//       client_auth: { username: agent, password: "${env:AGENT_PASSWORD}" }
#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/config/config_reader.h"
#include "core/util/status.h"

namespace proflow::extensions::basicauth {

struct HtpasswdConfig {
  std::string file;
  std::string inline_entries;  // YAML key `inline`; its entries win over the file's for the same user

  // Reads the file and the inline entries: user -> hash. Config validation and start-up both call
  // it, so `proflow validate` refuses what start-up would (a missing file, plain-text passwords).
  Status loadUsers(std::map<std::string, std::string>* users) const;
  template <class V>
  void visit(V& v) {
    v.field("file", file, "htpasswd file (user:hash per line)");
    v.field("inline", inline_entries, "htpasswd entries written in the config");
  }
};

struct ClientAuthConfig {
  std::string username;
  std::string password;
  template <class V>
  void visit(V& v) {
    v.field("username", username, "user sent by exporters");
    v.field("password", password, "password sent by exporters (never logged)");
  }
};

struct BasicAuthConfig {
  std::optional<HtpasswdConfig> htpasswd;
  std::optional<ClientAuthConfig> client_auth;
  template <class V>
  void visit(V& v) {
    v.field("htpasswd", htpasswd, "server mode: accepted users");
    v.field("client_auth", client_auth, "client mode: credentials to send");
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::extensions::basicauth
