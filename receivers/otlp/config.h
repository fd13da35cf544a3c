// Config of the `otlp` receiver: OTLP profiles over gRPC and/or HTTP.
//
//   receivers:
//     otlp:
//       protocols:
//         grpc: { endpoint: 127.0.0.1:4317 }
//         http: { endpoint: 127.0.0.1:4318 }
//   (either protocol takes tls: { cert_file, key_file, client_ca_file } to serve TLS / mutual TLS)
#pragma once

#include <optional>
#include <string>

#include "core/auth/auth_config.h"
#include "core/config/config_reader.h"
#include "core/net/server_limits.h"
#include "core/net/tls_config.h"

namespace proflow::receivers::otlp {

struct GrpcProtocolConfig {
  std::string endpoint = "127.0.0.1:4317";
  config::ByteSize max_recv_msg_size = config::ByteSize(64ull << 20);  // after decompression
  int max_concurrent_requests = 64;  // requests decoded/processed at once; more are refused (retryable)
  // gRPC's own decompression is off: it inflates a whole message before checking its size. proflow
  // inflates gzip/deflate messages itself, bounded by max_recv_msg_size and this ratio.
  double max_inflate_ratio = 100;
  std::optional<net::TlsServerConfig> tls;
  std::optional<auth::AuthConfig> auth;
  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "host:port to listen on");
    v.field("tls", tls, "serve TLS with this certificate (absent = plain text)");
    v.field("auth", auth, "authenticate requests: { authenticator: <extension id> }");
    v.field("max_recv_msg_size", max_recv_msg_size, "largest request accepted, after decompression");
    v.field("max_concurrent_requests", max_concurrent_requests, "requests processed at once");
    v.field("max_inflate_ratio", max_inflate_ratio, "largest decompressed/compressed ratio accepted");
  }
};

struct HttpProtocolConfig {
  std::string endpoint = "127.0.0.1:4318";
  config::ByteSize max_request_body_size = config::ByteSize(64ull << 20);  // after decompression
  double max_inflate_ratio = 100;
  std::optional<net::TlsServerConfig> tls;
  std::optional<auth::AuthConfig> auth;
  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "host:port to listen on");
    v.field("tls", tls, "serve TLS with this certificate (absent = plain text)");
    v.field("auth", auth, "authenticate requests: { authenticator: <extension id> }");
    v.field("max_request_body_size", max_request_body_size, "largest body accepted, after decompression");
    v.field("max_inflate_ratio", max_inflate_ratio, "largest decompressed/compressed ratio accepted");
  }
};

struct ProtocolsConfig {
  std::optional<GrpcProtocolConfig> grpc;
  std::optional<HttpProtocolConfig> http;
  template <class V>
  void visit(V& v) {
    v.field("grpc", grpc, "enable OTLP/gRPC (present = on)");
    v.field("http", http, "enable OTLP/HTTP (present = on)");
  }
};

struct OtlpReceiverConfig {
  ProtocolsConfig protocols;
  // One in-flight budget for both protocols; connection and timeout keys apply to HTTP.
  net::ServerLimitsConfig server_limits;
  template <class V>
  void visit(V& v) {
    v.field("protocols", protocols);
    server_limits.visit(v);  // max_in_flight_bytes, max_connections, read_*_timeout
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::receivers::otlp
