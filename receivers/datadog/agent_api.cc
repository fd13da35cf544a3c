#include "receivers/datadog/agent_api.h"

namespace proflow::receivers::datadog {
namespace {

constexpr std::string_view kJson = "application/json";
constexpr std::string_view kRates = "{\"rate_by_service\":{}}";

}  // namespace

const std::vector<DroppedPath>& droppedPaths() {
  static const std::vector<DroppedPath> paths = {
      {"/v0.3/traces", "OK", "text/plain; charset=utf-8"},
      {"/v0.3/services", "OK", "text/plain; charset=utf-8"},
      {"/v0.4/traces", kRates, kJson},
      {"/v0.4/services", "OK", "text/plain; charset=utf-8"},
      {"/v0.5/traces", kRates, kJson},
      {"/v0.7/traces", kRates, kJson},
      {"/v0.6/stats", "OK", "text/plain; charset=utf-8"},
      {"/v0.1/pipeline_stats", "{}", kJson},
      {"/telemetry/proxy/*", "{}", kJson},
      {"/evp_proxy/v1/*", "{}", kJson},
      {"/evp_proxy/v2/*", "{}", kJson},
      {"/evp_proxy/v3/*", "{}", kJson},
      {"/evp_proxy/v4/*", "{}", kJson},
      {"/debugger/v1/input", "{}", kJson},
      {"/debugger/v1/diagnostics", "{}", kJson},
      {"/debugger/v2/input", "{}", kJson},
      {"/symdb/v1/input", "{}", kJson},
      {"/dogstatsd/v2/proxy", "{}", kJson},
      {"/tracer_flare/v1", "{}", kJson},
  };
  return paths;
}

std::string infoBody(int port, size_t max_request_bytes) {
  std::string endpoints;
  auto add = [&](std::string_view p) {
    if (p.back() == '*') p.remove_suffix(1);
    endpoints += endpoints.empty() ? "\n\t\t\"" : ",\n\t\t\"";
    endpoints += p;
    endpoints += '"';
  };
  for (const auto& d : droppedPaths()) add(d.path);
  add(kProfilingPath);
  return "{\n"
         "\t\"version\": \"" PROFLOW_VERSION "-proflow\",\n"
         "\t\"git_commit\": \"proflow\",\n"
         "\t\"endpoints\": [" + endpoints + "\n\t],\n"
         "\t\"client_drop_p0s\": false,\n"
         "\t\"span_meta_structs\": true,\n"
         "\t\"long_running_spans\": true,\n"
         "\t\"span_events\": true,\n"
         "\t\"evp_proxy_allowed_headers\": [\"Content-Type\", \"Accept-Encoding\", \"Content-Encoding\", "
         "\"User-Agent\", \"DD-CI-PROVIDER-NAME\"],\n"
         "\t\"config\": {\n"
         "\t\t\"default_env\": \"none\",\n"
         "\t\t\"receiver_port\": " + std::to_string(port) + ",\n"
         "\t\t\"max_request_bytes\": " + std::to_string(max_request_bytes) + "\n"
         "\t}\n"
         "}";
}

}  // namespace proflow::receivers::datadog
