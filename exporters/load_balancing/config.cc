#include "exporters/load_balancing/config.h"

#include "core/net/endpoint.h"

namespace proflow::exporters::loadbalancing {

void LoadBalancingExporterConfig::validate(config::ValidationContext& ctx) const {
  if (routing_key != "service" && routing_key != "resource")
    ctx.error("routing_key", "unknown routing_key '" + routing_key + "'; valid: service, resource");
  if (resolver.static_list.has_value() == resolver.dns.has_value())
    ctx.error("resolver", "set exactly one resolver: static: { hostnames: [...] } or dns: { hostname: ... }");
  if (resolver.static_list) {
    if (resolver.static_list->hostnames.empty()) ctx.error("resolver.static.hostnames", "list at least one backend");
    for (const auto& h : resolver.static_list->hostnames) {
      net::Endpoint ep;
      if (Status s = net::parseEndpoint(h, &ep); !s.isOk()) ctx.error("resolver.static.hostnames", s.message());
    }
  }
  if (resolver.dns) {
    if (resolver.dns->hostname.empty()) ctx.error("resolver.dns.hostname", "required");
    if (resolver.dns->port < 1 || resolver.dns->port > 65535) ctx.error("resolver.dns.port", "must be 1..65535");
    if (resolver.dns->interval.value.count() <= 0) ctx.error("resolver.dns.interval", "must be greater than 0");
  }
  auto otlp_ctx = ctx.nested("protocol.otlp");
  if (!protocol.otlp.endpoint.empty())
    otlp_ctx.error("endpoint", "set by the resolver; remove it here");
  // The OTLP sender's own checks, with a stand-in for the endpoint the resolver fills in.
  exporterhelper::OtlpGrpcConfig probe = protocol.otlp;
  probe.endpoint = "resolved:4317";
  probe.validate(otlp_ctx);
}

}  // namespace proflow::exporters::loadbalancing
