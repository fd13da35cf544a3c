#include "processors/compress/config.h"

#include <string>

namespace proflow::processors::compress {

void CompressConfig::validate(config::ValidationContext& ctx) const {
  if (max_stack_depth == 1)
    ctx.error("max_stack_depth", "max_stack_depth must be 0 (off) or >= 2: one frame is kept plus the [truncated] marker");
  if (!(min_fraction >= 0 && min_fraction < 1))
    ctx.error("min_fraction", "min_fraction must be within [0, 1), got " + std::to_string(min_fraction));
}

}  // namespace proflow::processors::compress
