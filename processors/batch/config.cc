#include "processors/batch/config.h"

#include <algorithm>

namespace proflow::processors::batch {

void BatchProcessorConfig::validate(config::ValidationContext& ctx) const {
  if (send_batch_max_size != 0 && send_batch_max_size < send_batch_size)
    ctx.error("send_batch_max_size", "send_batch_max_size (" + std::to_string(send_batch_max_size) +
                                         ") must be 0 or >= send_batch_size (" + std::to_string(send_batch_size) + ")");
  if (max_buffered_bytes.bytes == 0) ctx.error("max_buffered_bytes", "max_buffered_bytes must be > 0");
}

uint64_t BatchProcessorConfig::maxBufferedProfiles() const {
  return 4 * uint64_t{std::max(send_batch_size, send_batch_max_size)};
}

}  // namespace proflow::processors::batch
