#include "receivers/folded/config.h"

#include "core/net/endpoint.h"

namespace proflow::receivers::folded {

void FoldedReceiverConfig::validate(config::ValidationContext& ctx) const {
  net::Endpoint ep;
  if (Status s = net::parseEndpoint(endpoint, &ep); !s.isOk()) ctx.error("endpoint", s.message());
  if (max_request_body_size.bytes == 0) ctx.error("max_request_body_size", "must be greater than 0");
  server_limits.validate(ctx, max_request_body_size.bytes);
  if (max_inflate_ratio < 1) ctx.error("max_inflate_ratio", "must be at least 1");
  if (sample_type.empty()) ctx.error("sample_type", "must not be empty");
  if (sample_unit.empty()) ctx.error("sample_unit", "must not be empty");
  if (period < 0) ctx.error("period", "must not be negative");
  for (const auto& [k, v] : attributes)
    if (k.empty()) ctx.error("attributes", "attribute names must not be empty");
  if (tls) {
    auto t = ctx.nested("tls");
    tls->validate(t);
  }
}

}  // namespace proflow::receivers::folded
