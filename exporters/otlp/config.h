// Config of the `otlp` exporter: OTLP profiles over gRPC to a gateway or backend.
//
//   exporters:
//     otlp:
//       endpoint: gateway.example:4317
//       compression: gzip
//       headers: { x-scope-orgid: tenant-1 }
//       tls: { insecure: true }
//       timeout: 10s
//       sending_queue: { num_consumers: 4, queue_size: 500 }
//       retry_on_failure: { initial_interval: 1s }
#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/auth/auth_config.h"
#include "core/config/config_reader.h"
#include "core/exporterhelper/exporter_helper_config.h"
#include "core/net/tls_config.h"

namespace proflow::exporters::otlp {

struct OtlpExporterConfig {
  std::string endpoint;               // host:port; an http:// prefix means insecure, https:// means TLS
  std::string compression = "gzip";   // gzip | none
  std::map<std::string, std::string> headers;
  net::TlsClientConfig tls;
  std::optional<auth::AuthConfig> auth;  // client credentials from an auth extension
  bool send_version_header = false;  // OTLP-Profiles-Development-Version: 1 (off until upstream settles it)
  config::ByteSize max_request_size = config::ByteSize(64ull << 20);  // larger batches are dropped and counted
  exporterhelper::ExporterHelperConfig helper;

  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "host:port of the OTLP/gRPC server");
    v.field("compression", compression, "gzip or none");
    v.field("headers", headers, "metadata sent with every request");
    v.field("tls", tls);
    v.field("auth", auth, "send credentials from an auth extension: { authenticator: <id> }");
    v.field("send_version_header", send_version_header, "send the OTLP profiles development version header");
    v.field("max_request_size", max_request_size, "requests larger than this (uncompressed) are not sent");
    helper.visit(v);
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::exporters::otlp
