// Config of the `datadog` exporter: profiles to Datadog's profiling intake, through the Datadog Agent
// (default) or agentless with an API key.
//
//   exporters:
//     datadog:
//       endpoint: http://127.0.0.1:8126/profiling/v1/input   # the Agent's proxy
//       # agentless: site: datadoghq.eu + api_key: ${env:DD_API_KEY}
//       tags: { team: payments }
#pragma once

#include <map>
#include <string>

#include "core/auth/auth_config.h"
#include "core/config/config_reader.h"
#include "core/exporterhelper/exporter_helper_config.h"
#include "core/net/tls_config.h"

namespace proflow::exporters::datadog {

struct DatadogExporterConfig {
  std::string endpoint;  // full URL of an intake (the Agent's /profiling/v1/input, or any /api/v2/profile)
  std::string site;      // agentless: https://intake.profile.<site>/api/v2/profile
  std::string api_key;   // DD-API-KEY; required agentless, never logged
  std::map<std::string, std::string> tags;  // added to tags_profiler of every upload
  net::TlsClientConfig tls;
  std::optional<auth::AuthConfig> auth;  // client credentials from an auth extension
  exporterhelper::ExporterHelperConfig helper;

  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "intake URL, e.g. the Datadog Agent's http://127.0.0.1:8126/profiling/v1/input");
    v.field("site", site, "agentless: Datadog site (datadoghq.com, datadoghq.eu, ...)");
    v.field("api_key", api_key, "DD-API-KEY (agentless; never logged)");
    v.field("tags", tags, "tags added to every profile upload");
    v.field("tls", tls);
    v.field("auth", auth, "send credentials from an auth extension: { authenticator: <id> }");
    helper.visit(v);
  }
  void validate(config::ValidationContext& ctx) const;

  // The URL uploads go to.
  std::string intakeUrl() const;
};

}  // namespace proflow::exporters::datadog
