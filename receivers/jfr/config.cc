#include "receivers/jfr/config.h"

namespace proflow::receivers::jfr {

void JfrReceiverConfig::validate(config::ValidationContext& ctx) const {
  if (endpoint.empty() && !directory) ctx.error("", "nothing to receive: set endpoint, directory, or both");
  validateListener(ctx, /*endpoint_optional=*/true);
  if (directory) directory->validate(ctx);
}

}  // namespace proflow::receivers::jfr
