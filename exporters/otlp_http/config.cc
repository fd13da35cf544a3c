#include "exporters/otlp_http/config.h"

#include "core/net/http_util.h"

namespace proflow::exporters::otlphttp {

std::string OtlpHttpExporterConfig::url() const {
  if (!profiles_endpoint.empty()) return profiles_endpoint;
  std::string base = endpoint;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/v1development/profiles";
}

void OtlpHttpExporterConfig::validate(config::ValidationContext& ctx) const {
  if (endpoint.empty() && profiles_endpoint.empty())
    ctx.error("endpoint", "required: base URL such as http://127.0.0.1:4318");
  net::Url parsed;
  if (Status s = net::parseUrl(url(), &parsed); !s.isOk())
    ctx.error(profiles_endpoint.empty() ? "endpoint" : "profiles_endpoint", s.message());
  if (encoding != "proto" && encoding != "json")
    ctx.error("encoding", "unknown encoding '" + encoding + "'; valid: json, proto");
  if (compression != "gzip" && compression != "zstd" && compression != "none")
    ctx.error("compression", "unknown compression '" + compression + "'; valid: gzip, none, zstd");
  auto tls_ctx = ctx.nested("tls");
  tls.validateForUrl(tls_ctx, url());
  helper.validate(ctx);
}

}  // namespace proflow::exporters::otlphttp
