// Config of the `parca` exporter: profiles to a Parca server as pprof through its gRPC
// ProfileStoreService.WriteRaw.
//
//   exporters:
//     parca:
//       endpoint: parca.observability:7070
//       tls: { insecure: true }
//       bearer_token_file: /var/run/secrets/parca/token
//       external_labels: { cluster: prod-eu }
#pragma once

#include <map>
#include <string>

#include "core/auth/auth_config.h"
#include "core/config/config_reader.h"
#include "core/exporterhelper/exporter_helper_config.h"
#include "core/net/tls_config.h"

namespace proflow::exporters::parca {

struct ParcaExporterConfig {
  std::string endpoint;                  // host:port of Parca's gRPC server (default port 7070)
  net::TlsClientConfig tls;
  std::optional<auth::AuthConfig> auth;  // client credentials from an auth extension
  std::string bearer_token;              // sent as `authorization: Bearer <token>`; never logged
  std::string bearer_token_file;         // or read from this file at start
  std::map<std::string, std::string> headers;
  std::map<std::string, std::string> external_labels;  // added to every series, override resource labels
  std::string compression = "gzip";      // gRPC message compression: gzip | none
  config::ByteSize max_request_size = config::ByteSize(32ull << 20);
  exporterhelper::ExporterHelperConfig helper;

  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "host:port of the Parca gRPC server");
    v.field("tls", tls);
    v.field("auth", auth, "send credentials from an auth extension: { authenticator: <id> }");
    v.field("bearer_token", bearer_token, "bearer token for Parca (authorization metadata)");
    v.field("bearer_token_file", bearer_token_file, "file holding the bearer token");
    v.field("headers", headers, "gRPC metadata sent with every request");
    v.field("external_labels", external_labels, "labels added to every series");
    v.field("compression", compression, "gzip or none");
    v.field("max_request_size", max_request_size, "WriteRaw requests larger than this are not sent");
    helper.visit(v);
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::exporters::parca
