// Config of the `pyroscope` receiver: Pyroscope-compatible `POST /ingest` (and `/pyroscope/ingest`),
// so Pyroscope SDKs can point at proflow unchanged.
//
//   receivers:
//     pyroscope:
//       endpoint: 127.0.0.1:4040
//       max_request_body_size: 32MiB
//       max_profile_size: 64MiB
//       max_inflate_ratio: 100
//       max_concurrent_requests: 64
#pragma once

#include <optional>
#include <string>

#include "core/config/config_reader.h"
#include "core/auth/auth_config.h"
#include "core/net/server_limits.h"
#include "core/net/tls_config.h"

namespace proflow::receivers::pyroscope {

struct PyroscopeReceiverConfig {
  std::string endpoint = "127.0.0.1:4040";  // Pyroscope's own port
  // Request body as received and after Content-Encoding decompression.
  config::ByteSize max_request_body_size = config::ByteSize(32ull << 20);
  // A profile (or multipart part) after decompressing gzip/zstd inside the body.
  config::ByteSize max_profile_size = config::ByteSize(64ull << 20);
  double max_inflate_ratio = 100;  // decompressed/compressed, above 1 MiB of output
  int max_concurrent_requests = 64;  // decoded at once; more are answered 429 + Retry-After
  std::optional<net::TlsServerConfig> tls;
  std::optional<auth::AuthConfig> auth;  // authenticates the listener's requests
  net::ServerLimitsConfig server_limits;  // keys at this level, see core/net/server_limits.h

  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "host:port to listen on");
    v.field("tls", tls, "serve TLS with this certificate (absent = plain text)");
    v.field("auth", auth, "authenticate requests: { authenticator: <extension id> }");
    v.field("max_request_body_size", max_request_body_size, "largest body accepted, as sent and after Content-Encoding");
    v.field("max_profile_size", max_profile_size, "largest profile accepted after decompressing gzip pprof");
    v.field("max_inflate_ratio", max_inflate_ratio, "largest decompressed/compressed ratio accepted");
    v.field("max_concurrent_requests", max_concurrent_requests, "requests converted at once; more get 429");
    server_limits.visit(v);  // max_in_flight_bytes, max_connections, read_*_timeout
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::receivers::pyroscope
