// Config of the `otlphttp` exporter: OTLP profiles over HTTP (protobuf or JSON).
//
//   exporters:
//     otlphttp:
//       endpoint: https://otlp.example.com:4318   # POSTs to <endpoint>/v1development/profiles
//       compression: zstd
//       headers: { authorization: "Bearer ${env:OTLP_TOKEN}" }
#pragma once

#include <map>
#include <string>

#include "core/auth/auth_config.h"
#include "core/config/config_reader.h"
#include "core/exporterhelper/exporter_helper_config.h"
#include "core/net/tls_config.h"

namespace proflow::exporters::otlphttp {

struct OtlpHttpExporterConfig {
  std::string endpoint;           // base URL; /v1development/profiles is appended
  std::string profiles_endpoint;  // full URL, overrides endpoint + path
  std::string encoding = "proto";    // proto | json
  std::string compression = "gzip";  // gzip | zstd | none
  std::map<std::string, std::string> headers;
  net::TlsClientConfig tls;
  std::optional<auth::AuthConfig> auth;  // client credentials from an auth extension
  bool send_version_header = false;  // OTLP-Profiles-Development-Version: 1 (off until upstream settles it)
  config::ByteSize max_request_size = config::ByteSize(64ull << 20);
  exporterhelper::ExporterHelperConfig helper;

  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "base URL of the OTLP/HTTP server");
    v.field("profiles_endpoint", profiles_endpoint, "full URL for profiles (overrides endpoint)");
    v.field("encoding", encoding, "proto or json");
    v.field("compression", compression, "gzip, zstd or none");
    v.field("headers", headers, "HTTP headers sent with every request");
    v.field("tls", tls);
    v.field("auth", auth, "send credentials from an auth extension: { authenticator: <id> }");
    v.field("send_version_header", send_version_header, "send the OTLP profiles development version header");
    v.field("max_request_size", max_request_size, "requests larger than this (uncompressed) are not sent");
    helper.visit(v);
  }
  void validate(config::ValidationContext& ctx) const;
  std::string url() const;
};

}  // namespace proflow::exporters::otlphttp
