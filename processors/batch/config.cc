#include "processors/batch/config.h"

#include "core/model/client_metadata.h"

#include <algorithm>

#include "core/runtime/cpu_limits.h"

namespace proflow::processors::batch {
namespace {

constexpr uint32_t kMaxShards = 1024;
// A shard's merged batch holds at most max_buffered_bytes (or one larger incoming batch, taken
// alone), and flat batches address their arena and columns with 32-bit offsets (core/flat): 2 GiB
// keeps every merged batch well inside them.
constexpr uint64_t kMaxBufferedBytes = uint64_t{2} << 30;

}  // namespace

void BatchProcessorConfig::validate(config::ValidationContext& ctx) const {
  if (send_batch_max_size != 0 && send_batch_max_size < send_batch_size)
    ctx.error("send_batch_max_size", "send_batch_max_size (" + std::to_string(send_batch_max_size) +
                                         ") must be 0 or >= send_batch_size (" + std::to_string(send_batch_size) + ")");
  if (max_buffered_bytes.bytes == 0) ctx.error("max_buffered_bytes", "max_buffered_bytes must be > 0");
  if (max_buffered_bytes.bytes > kMaxBufferedBytes)
    ctx.error("max_buffered_bytes", "max_buffered_bytes must be at most 2GiB (a merged batch addresses its data with "
                                    "32-bit offsets), got " + max_buffered_bytes.str());
  if (shards > kMaxShards)
    ctx.error("shards", "shards must be at most " + std::to_string(kMaxShards) + ", got " + std::to_string(shards));
  if (wait_for_flush != "auto" && wait_for_flush != "true" && wait_for_flush != "false")
    ctx.error("wait_for_flush", "wait_for_flush must be auto, true or false, got '" + wait_for_flush + "'");
  for (size_t i = 0; i < metadata_keys.size(); ++i) {
    if (metadata_keys[i].empty()) ctx.error("metadata_keys", "metadata_keys[" + std::to_string(i) + "] is empty");
    for (size_t j = 0; j < i; ++j)
      if (lowerAscii(metadata_keys[i]) == lowerAscii(metadata_keys[j]))
        ctx.error("metadata_keys", "'" + metadata_keys[i] + "' is listed twice (keys compare case-insensitively)");
  }
  if (!metadata_keys.empty() && metadata_cardinality_limit == 0)
    ctx.error("metadata_cardinality_limit", "must be at least 1");
}

uint64_t BatchProcessorConfig::maxBufferedProfiles() const {
  return (shardCount() + 3) * uint64_t{std::max(send_batch_size, send_batch_max_size)};
}

size_t BatchProcessorConfig::shardCount() const { return shards != 0 ? shards : 2 * size_t{usableCpus()}; }

}  // namespace proflow::processors::batch
