#include "extensions/health_check/config.h"

namespace proflow::extensions::health_check {

void HealthCheckConfig::validate(config::ValidationContext& ctx) const {
  server.validate(ctx);
  if (path.empty() || path[0] != '/') ctx.error("path", "'" + path + "' must start with '/'");
}

}  // namespace proflow::extensions::health_check
