// Config of the `bearertokenauth` extension: a bearer token a server requires and a client sends,
// inline or from a file that is re-read when it changes.
//
//   extensions:
//     bearertokenauth:
//       token: "${env:PROFLOW_TOKEN}"    # or tokens: [a, b] (a server accepts any), or filename:
//       # filename: /var/run/secrets/proflow/token
//       scheme: Bearer                   # Authorization: <scheme> <token>
//       header: Authorization
#pragma once

#include <string>
#include <vector>

#include "core/config/config_reader.h"

namespace proflow::extensions::bearertokenauth {

struct BearerTokenAuthConfig {
  std::string header = "Authorization";
  std::string scheme = "Bearer";  // "" sends the bare token
  std::string token;
  std::vector<std::string> tokens;
  std::string filename;  // one token per line (first word); wins over token/tokens

  template <class V>
  void visit(V& v) {
    v.field("header", header, "request header carrying the token");
    v.field("scheme", scheme, "prefix of the header value (\"\" = the bare token)");
    v.field("token", token, "the token (never logged)");
    v.field("tokens", tokens, "several tokens; a server accepts any, a client sends the first (never logged)");
    v.field("filename", filename, "file holding the token(s), one per line; re-read when it changes");
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::extensions::bearertokenauth
