#include "receivers/pyroscope/config.h"

namespace proflow::receivers::pyroscope {

void PyroscopeReceiverConfig::validate(config::ValidationContext& ctx) const {
  validateListener(ctx, /*endpoint_optional=*/false);
  if (max_profile_size.bytes == 0) ctx.error("max_profile_size", "must be greater than 0");
  if (max_concurrent_requests < 1) ctx.error("max_concurrent_requests", "must be at least 1");
}

}  // namespace proflow::receivers::pyroscope
