#include "exporters/pyroscope/config.h"

#include "core/net/http_util.h"
#include "exporters/pyroscope/series.h"

namespace proflow::exporters::pyroscope {

void PyroscopeExporterConfig::validate(config::ValidationContext& ctx) const {
  net::Url url;
  if (endpoint.empty()) ctx.error("endpoint", "endpoint is required: base URL of the Pyroscope server, e.g. http://pyroscope:4040");
  else if (Status s = net::parseUrl(endpoint, &url); !s.isOk()) ctx.error("endpoint", s.message());
  if (api != "push" && api != "ingest") ctx.error("api", "unknown api '" + api + "'; valid: push, ingest");
  if (int(auth.basic.has_value()) + int(!auth.bearer_token.empty()) + int(!auth.authenticator.empty()) > 1)
    ctx.error("auth", "set one of basic, bearer_token or authenticator");
  if (auth.basic && auth.basic->username.empty()) ctx.error("auth.basic.username", "required with basic auth");
  for (const auto& [k, v] : external_labels) {
    if (!isValidLabelName(k))
      ctx.error("external_labels", "'" + k + "' is not a valid label name ([a-zA-Z_][a-zA-Z0-9_]*)");
    else if (k.rfind("__", 0) == 0)
      ctx.error("external_labels", "'" + k + "': names starting with __ are reserved by Pyroscope");
  }
  for (const auto& [k, v] : headers)
    if (k.empty() || k.find_first_of(" :\r\n") != std::string::npos)
      ctx.error("headers", "invalid header name '" + k + "'");
  auto tls_ctx = ctx.nested("tls");
  tls.validateForUrl(tls_ctx, endpoint);
  helper.validate(ctx);
}

}  // namespace proflow::exporters::pyroscope
