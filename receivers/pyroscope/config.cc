#include "receivers/pyroscope/config.h"

#include "core/net/endpoint.h"

namespace proflow::receivers::pyroscope {

void PyroscopeReceiverConfig::validate(config::ValidationContext& ctx) const {
  net::Endpoint ep;
  if (Status s = net::parseEndpoint(endpoint, &ep); !s.isOk()) ctx.error("endpoint", s.message());
  if (max_request_body_size.bytes == 0) ctx.error("max_request_body_size", "must be > 0");
  server_limits.validate(ctx, max_request_body_size.bytes);
  if (max_profile_size.bytes == 0) ctx.error("max_profile_size", "must be > 0");
  if (!(max_inflate_ratio >= 1)) ctx.error("max_inflate_ratio", "must be >= 1");
  if (max_concurrent_requests < 1) ctx.error("max_concurrent_requests", "must be >= 1");
  if (tls) {
    auto t = ctx.nested("tls");
    tls->validate(t);
  }
}

}  // namespace proflow::receivers::pyroscope
