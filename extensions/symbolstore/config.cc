#include "extensions/symbolstore/config.h"

#include "core/net/endpoint.h"

namespace proflow::extensions::symbolstore {

void SymbolStoreConfig::validate(config::ValidationContext& ctx) const {
  net::Endpoint ep;
  if (Status s = net::parseEndpoint(endpoint, &ep); !s.isOk()) ctx.error("endpoint", s.message());
  if (!grpc_endpoint.empty()) {
    if (Status s = net::parseEndpoint(grpc_endpoint, &ep); !s.isOk()) ctx.error("grpc_endpoint", s.message());
  }
  if (tls) {
    auto t = ctx.nested("tls");
    tls->validate(t);
  }
  if (directory.empty()) ctx.error("directory", "is required (where uploaded files are kept)");
  if (max_upload_size.bytes == 0) ctx.error("max_upload_size", "must be positive");
  if (quota_bytes.bytes < max_upload_size.bytes)
    ctx.error("quota_bytes", "must be at least max_upload_size (" + max_upload_size.str() + ")");
  if (max_in_flight_bytes.bytes != 0 && max_in_flight_bytes.bytes < max_upload_size.bytes)
    ctx.error("max_in_flight_bytes", "must be at least max_upload_size (" + max_upload_size.str() + ") or 0");
  for (size_t i = 0; i < upstream_debuginfod.size(); ++i) {
    const std::string& u = upstream_debuginfod[i];
    if (u.rfind("http://", 0) != 0 && u.rfind("https://", 0) != 0)
      ctx.error("upstream_debuginfod", "upstream_debuginfod[" + std::to_string(i) + "] '" + u +
                                           "' is not an http:// or https:// URL");
  }
  if (upstream_timeout.value.count() <= 0) ctx.error("upstream_timeout", "must be positive");
  if (upstream_miss_ttl.value.count() < 0) ctx.error("upstream_miss_ttl", "must not be negative");
  if (upstream_max_concurrent < 1) ctx.error("upstream_max_concurrent", "must be at least 1");
}

}  // namespace proflow::extensions::symbolstore
