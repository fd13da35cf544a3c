// The listening side every HTTP receiver of profile bodies shares (pprof push, folded, JFR, perf,
// Pyroscope ingest, Datadog intake): one YAML shape, one validation, one way to build the server.
// The keys sit at the receiver's top level:
//
//   receivers:
//     folded:
//       endpoint: 0.0.0.0:4043
//       tls: { cert_file: /etc/proflow/tls.crt, key_file: /etc/proflow/tls.key }
//       auth: { authenticator: bearertokenauth }
//       max_request_body_size: 32MiB    # as sent and after Content-Encoding
//       max_inflate_ratio: 100
//       max_in_flight_bytes: 512MiB     # and the other keys of core/net/server_limits.h
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/auth/auth_config.h"
#include "core/config/config_reader.h"
#include "core/component/factory.h"
#include "core/model/client_metadata.h"
#include "core/net/http_server.h"
#include "core/net/server_limits.h"
#include "core/net/tls_config.h"

namespace proflow::receiverhelper {

// Every header of `request`, as the metadata a batch carries (core/model/client_metadata.h).
ClientMetadataPtr requestMetadata(const net::HttpRequest& request);

// A receiver's config derives from this and sets its own defaults (port, body size) in its
// constructor, so its fields stay `config.endpoint`, `config.tls`, ...
struct HttpListenerConfig {
  std::string endpoint;
  config::ByteSize max_request_body_size = config::ByteSize(32ull << 20);  // as sent and after decompression
  double max_inflate_ratio = 100;                                          // decompressed/compressed
  std::optional<net::TlsServerConfig> tls;
  std::optional<auth::AuthConfig> auth;   // authenticates the listener's requests
  net::ServerLimitsConfig server_limits;  // in-flight bytes, connections, read timeouts
  bool include_metadata = false;          // for receivers that call visitIncludeMetadata()

  // `endpoint_help` says what the endpoint serves (e.g. "host:port for POST /v1/jfr").
  template <class V>
  void visitListener(V& v, std::string_view endpoint_help) {
    v.field("endpoint", endpoint, endpoint_help);
    v.field("tls", tls, "serve TLS with this certificate (absent = plain text)");
    v.field("auth", auth, "authenticate requests: { authenticator: <extension id> }");
    v.field("max_request_body_size", max_request_body_size,
            "largest body accepted, as sent and after Content-Encoding");
    v.field("max_inflate_ratio", max_inflate_ratio, "largest decompressed/compressed ratio accepted");
    server_limits.visit(v);  // max_in_flight_bytes, max_connections, read_*_timeout
  }
  // The Collector's `include_metadata`, for the receivers whose batches carry request metadata.
  template <class V>
  void visitIncludeMetadata(V& v) {
    v.field("include_metadata", include_metadata,
            "keep the request's headers with its data (routing request context, batch metadata_keys, "
            "from_context, headers_setter)");
  }
  // The request's headers as the batch's metadata when include_metadata is on, else null.
  ClientMetadataPtr metadataOf(const net::HttpRequest& request) const {
    return include_metadata ? requestMetadata(request) : nullptr;
  }
  // `endpoint_optional`: an empty endpoint turns the listener off (receivers with another input).
  void validateListener(config::ValidationContext& ctx, bool endpoint_optional) const;
};

// The receiver's server, not started: options from `config` (TLS loaded, compressed bodies inflated
// on the runtime's workers), its authenticator, connection cap, timeouts and its own in-flight
// budget. The caller adds its routes, then calls start(). Errors name what failed (a certificate
// file, an unknown authenticator).
Status makeListener(Host& host, const CreateSettings& settings, const HttpListenerConfig& config,
                    std::unique_ptr<net::HttpServer>* out);

}  // namespace proflow::receiverhelper
