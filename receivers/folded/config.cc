#include "receivers/folded/config.h"

namespace proflow::receivers::folded {

void FoldedReceiverConfig::validate(config::ValidationContext& ctx) const {
  validateListener(ctx, /*endpoint_optional=*/false);
  if (sample_type.empty()) ctx.error("sample_type", "must not be empty");
  if (sample_unit.empty()) ctx.error("sample_unit", "must not be empty");
  if (period < 0) ctx.error("period", "must not be negative");
  for (const auto& [k, v] : attributes)
    if (k.empty()) ctx.error("attributes", "attribute names must not be empty");
}

}  // namespace proflow::receivers::folded
