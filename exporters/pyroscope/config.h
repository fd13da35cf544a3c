// Config of the `pyroscope` exporter: profiles to a Grafana Pyroscope server (or anything speaking
// its APIs, e.g. Alloy's pyroscope.receive_http).
//
//   exporters:
//     pyroscope:
//       endpoint: http://pyroscope:4040
//       api: push                 # push (POST /push.v1.PusherService/Push) | ingest (POST /ingest)
//       tenant_id: team-a         # X-Scope-OrgID
//       auth:
//         basic: { username: user, password: secret }
//         # or bearer_token: ..., or authenticator: basicauth/pyroscope (an auth extension)
//       external_labels: { cluster: prod-eu }
//       tls: { ca_file: ca.pem }
//       timeout: 10s
//       sending_queue: { queue_size: 100 }
//       retry_on_failure: { initial_interval: 1s }
#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/config/config_reader.h"
#include "core/exporterhelper/exporter_helper_config.h"
#include "core/net/tls_config.h"

namespace proflow::exporters::pyroscope {

struct BasicAuthConfig {
  std::string username;
  std::string password;
  template <class V>
  void visit(V& v) {
    v.field("username", username, "basic auth user");
    v.field("password", password, "basic auth password (never logged)");
  }
};

struct AuthConfig {
  std::optional<BasicAuthConfig> basic;
  std::string bearer_token;
  std::string authenticator;  // id of an auth extension (instead of basic / bearer_token)
  template <class V>
  void visit(V& v) {
    v.field("basic", basic, "Authorization: Basic");
    v.field("bearer_token", bearer_token, "Authorization: Bearer (never logged)");
    v.field("authenticator", authenticator, "credentials from an auth extension (listed in service.extensions)");
  }
};

struct PyroscopeExporterConfig {
  std::string endpoint;     // base URL, e.g. http://pyroscope:4040 (a path prefix is kept)
  std::string api = "push";  // push | ingest
  std::string tenant_id;
  AuthConfig auth;
  std::map<std::string, std::string> external_labels;
  std::map<std::string, std::string> headers;
  net::TlsClientConfig tls;
  exporterhelper::ExporterHelperConfig helper;

  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "base URL of the Pyroscope server, http:// or https://");
    v.field("api", api, "push (Connect PusherService/Push) or ingest (legacy /ingest)");
    v.field("tenant_id", tenant_id, "sent as X-Scope-OrgID");
    v.field("auth", auth);
    v.field("external_labels", external_labels, "labels added to every series");
    v.field("headers", headers, "extra HTTP headers sent with every request");
    v.field("tls", tls);
    helper.visit(v);
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::exporters::pyroscope
