#include "receivers/datadog/config.h"

#include "core/net/http_util.h"

namespace proflow::receivers::datadog {

void DatadogReceiverConfig::validate(config::ValidationContext& ctx) const {
  validateListener(ctx, /*endpoint_optional=*/false);
  if (max_profile_size.bytes == 0) ctx.error("max_profile_size", "must be greater than 0");
  if (max_concurrent_requests < 1) ctx.error("max_concurrent_requests", "must be at least 1");
  if (!forward_to.empty()) {
    net::Url url;
    if (Status s = net::parseUrl(forward_to, &url); !s.isOk())
      ctx.error("forward_to", "must be an http:// or https:// URL of a Datadog Agent: " + s.message());
    else if (url.target != "/")
      ctx.error("forward_to", "must be the Agent's base URL without a path (e.g. http://datadog-agent:8126)");
    auto t = ctx.nested("forward_tls");
    forward_tls.validateForUrl(t, forward_to);
  }
  if (forward_timeout.value.count() <= 0) ctx.error("forward_timeout", "must be > 0");
  if (max_concurrent_forwards < 1) ctx.error("max_concurrent_forwards", "must be >= 1");
  if (forward_workers < 1 || forward_workers > 256) ctx.error("forward_workers", "must be between 1 and 256");
  if (max_forward_response_size.bytes == 0) ctx.error("max_forward_response_size", "must be > 0");
}

}  // namespace proflow::receivers::datadog
