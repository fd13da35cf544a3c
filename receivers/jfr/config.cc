#include "receivers/jfr/config.h"

#include "core/net/endpoint.h"

namespace proflow::receivers::jfr {

void JfrReceiverConfig::validate(config::ValidationContext& ctx) const {
  if (endpoint.empty() && !directory) ctx.error("", "nothing to receive: set endpoint, directory, or both");
  server_limits.validate(ctx, max_request_body_size.bytes);
  if (!endpoint.empty()) {
    net::Endpoint ep;
    if (Status s = net::parseEndpoint(endpoint, &ep); !s.isOk()) ctx.error("endpoint", s.message());
  }
  if (max_request_body_size.bytes == 0) ctx.error("max_request_body_size", "must be greater than 0");
  if (max_inflate_ratio < 1) ctx.error("max_inflate_ratio", "must be at least 1");
  if (directory) directory->validate(ctx);
  if (tls) {
    auto t = ctx.nested("tls");
    tls->validate(t);
  }
}

}  // namespace proflow::receivers::jfr
