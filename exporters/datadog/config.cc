#include "exporters/datadog/config.h"

namespace proflow::exporters::datadog {

void DatadogExporterConfig::validate(config::ValidationContext& ctx) const {
  if (endpoint.empty() == site.empty())
    ctx.error("endpoint", "set endpoint (e.g. the Agent's http://127.0.0.1:8126/profiling/v1/input) or site "
                          "(agentless), not both");
  if (!endpoint.empty() && endpoint.rfind("http://", 0) != 0 && endpoint.rfind("https://", 0) != 0)
    ctx.error("endpoint", "must be an http:// or https:// URL");
  if (!site.empty() && api_key.empty()) ctx.error("api_key", "agentless uploads (site) need an api_key");
  for (const auto& [k, v] : tags)
    if (k.empty() || k.find_first_of(",:") != std::string::npos || v.find(',') != std::string::npos)
      ctx.error("tags", "tag '" + k + "' must be non-empty and free of ',' and ':' (value free of ',')");
  auto tls_ctx = ctx.nested("tls");
  tls.validateForUrl(tls_ctx, intakeUrl());
  helper.validate(ctx);
}

std::string DatadogExporterConfig::intakeUrl() const {
  return !endpoint.empty() ? endpoint : "https://intake.profile." + site + "/api/v2/profile";
}

}  // namespace proflow::exporters::datadog
