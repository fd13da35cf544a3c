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
  // Shares of max_concurrent_requests one connection / one client may hold (0 = a quarter / a half
  // of it, at least 1). A client is its credential when the listener authenticates, else its
  // address.
  int max_concurrent_requests_per_connection = 0;
  int max_concurrent_requests_per_client = 0;
  // A call holds its slot while its message arrives and while its answer is written: a client that
  // stalls either (never sends, never reads) has its call cancelled and the slot freed after these.
  config::Duration read_message_timeout = std::chrono::minutes(5);  // as HTTP's read_body_timeout
  config::Duration write_response_timeout = std::chrono::seconds(30);
  // gRPC's own decompression is off: it inflates a whole message before checking its size. proflow
  // inflates gzip/deflate messages itself, bounded by max_recv_msg_size and this ratio.
  double max_inflate_ratio = 100;
  bool include_metadata = false;
  std::optional<net::TlsServerConfig> tls;
  std::optional<auth::AuthConfig> auth;
  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "host:port to listen on");
    v.field("tls", tls, "serve TLS with this certificate (absent = plain text)");
    v.field("auth", auth, "authenticate requests: { authenticator: <extension id> }");
    v.field("include_metadata", include_metadata,
            "keep the request's gRPC metadata with its data (routing request context, batch metadata_keys, "
            "from_context, headers_setter)");
    v.field("max_recv_msg_size", max_recv_msg_size, "largest request accepted, after decompression");
    v.field("max_concurrent_requests", max_concurrent_requests, "requests processed at once");
    v.field("max_concurrent_requests_per_connection", max_concurrent_requests_per_connection,
            "requests one connection may have at once (0 = a quarter of max_concurrent_requests)");
    v.field("max_concurrent_requests_per_client", max_concurrent_requests_per_client,
            "requests one credential (or, without auth, one address) may have at once (0 = half of max_concurrent_requests)");
    v.field("read_message_timeout", read_message_timeout, "time for an admitted call's message to arrive");
    v.field("write_response_timeout", write_response_timeout, "time for a call's answer to be written");
    v.field("max_inflate_ratio", max_inflate_ratio, "largest decompressed/compressed ratio accepted");
  }
  int perConnectionLimit() const;
  int perClientLimit() const;
};

struct HttpProtocolConfig {
  std::string endpoint = "127.0.0.1:4318";
  config::ByteSize max_request_body_size = config::ByteSize(64ull << 20);  // after decompression
  double max_inflate_ratio = 100;
  bool include_metadata = false;
  std::optional<net::TlsServerConfig> tls;
  std::optional<auth::AuthConfig> auth;
  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "host:port to listen on");
    v.field("tls", tls, "serve TLS with this certificate (absent = plain text)");
    v.field("auth", auth, "authenticate requests: { authenticator: <extension id> }");
    v.field("include_metadata", include_metadata,
            "keep the request's headers with its data (routing request context, batch metadata_keys, "
            "from_context, headers_setter)");
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
