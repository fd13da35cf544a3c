#include "receivers/perf/config.h"

namespace proflow::receivers::perf {

void PerfReceiverConfig::validate(config::ValidationContext& ctx) const {
  if (endpoint.empty() && !directory) ctx.error("", "nothing to receive: set endpoint, directory, or both");
  validateListener(ctx, /*endpoint_optional=*/true);
  if (max_stack_depth == 0) ctx.error("max_stack_depth", "must be greater than 0");
  if (max_samples == 0) ctx.error("max_samples", "must be greater than 0");
  if (directory) directory->validate(ctx);
}

}  // namespace proflow::receivers::perf
