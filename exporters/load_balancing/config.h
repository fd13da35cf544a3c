// Config of the `loadbalancing` exporter: agents spread profiles over gateway replicas by a routing
// key, so every profile of one service (or one resource) lands on the same gateway.
//
//   exporters:
//     loadbalancing:
//       routing_key: service                 # service | resource
//       resolver:
//         static: { hostnames: [gw-1:4317, gw-2:4317] }
//         # dns: { hostname: proflow-gateway-headless.observability, port: 4317, interval: 5s }
//       protocol:
//         otlp: { tls: { insecure: true }, timeout: 5s, sending_queue: { queue_size: 500 } }
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/config/config_reader.h"
#include "core/exporterhelper/otlp_grpc_sender.h"

namespace proflow::exporters::loadbalancing {

struct StaticResolverConfig {
  std::vector<std::string> hostnames;  // host:port
  template <class V>
  void visit(V& v) {
    v.field("hostnames", hostnames, "host:port of every backend");
  }
};

struct DnsResolverConfig {
  std::string hostname;  // every A/AAAA record is one backend (a Kubernetes headless Service)
  int port = 4317;
  config::Duration interval = std::chrono::seconds(5);
  template <class V>
  void visit(V& v) {
    v.field("hostname", hostname, "name whose addresses are the backends");
    v.field("port", port, "port of every backend");
    v.field("interval", interval, "how often the name is resolved again");
  }
};

struct ResolverConfig {
  std::optional<StaticResolverConfig> static_list;
  std::optional<DnsResolverConfig> dns;
  template <class V>
  void visit(V& v) {
    v.field("static", static_list, "a fixed list of backends");
    v.field("dns", dns, "backends from a DNS name, re-resolved periodically");
  }
};

struct ProtocolConfig {
  exporterhelper::OtlpGrpcConfig otlp;  // everything but the endpoint, which the resolver supplies
  template <class V>
  void visit(V& v) {
    v.field("otlp", otlp);
  }
};

struct LoadBalancingExporterConfig {
  std::string routing_key = "service";
  ResolverConfig resolver;
  ProtocolConfig protocol;
  template <class V>
  void visit(V& v) {
    v.field("routing_key", routing_key, "service (service.name) or resource (all resource attributes)");
    v.field("resolver", resolver);
    v.field("protocol", protocol);
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::exporters::loadbalancing
