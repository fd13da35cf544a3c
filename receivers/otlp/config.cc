#include "receivers/otlp/config.h"

#include <algorithm>

#include "core/net/endpoint.h"

namespace proflow::receivers::otlp {

int GrpcProtocolConfig::perConnectionLimit() const {
  if (max_concurrent_requests_per_connection > 0) return max_concurrent_requests_per_connection;
  return std::max(1, max_concurrent_requests / 4);
}

int GrpcProtocolConfig::perClientLimit() const {
  if (max_concurrent_requests_per_client > 0) return max_concurrent_requests_per_client;
  return std::max(1, max_concurrent_requests / 2);
}

void OtlpReceiverConfig::validate(config::ValidationContext& ctx) const {
  if (!protocols.grpc && !protocols.http)
    ctx.error("protocols", "enable at least one protocol: protocols: { grpc: {}, http: {} }");
  uint64_t largest = 0;
  if (protocols.grpc) largest = protocols.grpc->max_recv_msg_size.bytes;
  if (protocols.http) largest = std::max(largest, protocols.http->max_request_body_size.bytes);
  server_limits.validate(ctx, largest);
  if (protocols.grpc) {
    net::Endpoint ep;
    if (Status s = net::parseEndpoint(protocols.grpc->endpoint, &ep); !s.isOk())
      ctx.error("protocols.grpc.endpoint", s.message());
    if (protocols.grpc->max_recv_msg_size.bytes == 0 || protocols.grpc->max_recv_msg_size.bytes > (1ull << 31) - 1)
      ctx.error("protocols.grpc.max_recv_msg_size", "must be between 1 byte and 2GiB");
    if (protocols.grpc->max_inflate_ratio < 1) ctx.error("protocols.grpc.max_inflate_ratio", "must be at least 1");
    if (protocols.grpc->max_concurrent_requests < 1)
      ctx.error("protocols.grpc.max_concurrent_requests", "must be at least 1");
    if (protocols.grpc->max_concurrent_requests_per_connection < 0)
      ctx.error("protocols.grpc.max_concurrent_requests_per_connection", "must be 0 (default) or more");
    if (protocols.grpc->max_concurrent_requests_per_client < 0)
      ctx.error("protocols.grpc.max_concurrent_requests_per_client", "must be 0 (default) or more");
    if (protocols.grpc->read_message_timeout.zero())
      ctx.error("protocols.grpc.read_message_timeout", "must be greater than 0");
    if (protocols.grpc->write_response_timeout.zero())
      ctx.error("protocols.grpc.write_response_timeout", "must be greater than 0");
    if (protocols.grpc->tls) {
      auto tls = ctx.nested("protocols.grpc.tls");
      protocols.grpc->tls->validate(tls);
    }
  }
  if (protocols.http) {
    net::Endpoint ep;
    if (Status s = net::parseEndpoint(protocols.http->endpoint, &ep); !s.isOk())
      ctx.error("protocols.http.endpoint", s.message());
    if (protocols.http->max_request_body_size.bytes == 0)
      ctx.error("protocols.http.max_request_body_size", "must be greater than 0");
    if (protocols.http->max_inflate_ratio < 1) ctx.error("protocols.http.max_inflate_ratio", "must be at least 1");
    if (protocols.http->tls) {
      auto tls = ctx.nested("protocols.http.tls");
      protocols.http->tls->validate(tls);
    }
  }
}

}  // namespace proflow::receivers::otlp
