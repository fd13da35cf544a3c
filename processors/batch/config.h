// Configuration of the `batch` processor.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/config_reader.h"
#include "core/config/config_types.h"

namespace proflow::processors::batch {

struct BatchProcessorConfig {
  uint32_t send_batch_size = 256;
  uint32_t send_batch_max_size = 0;
  config::Duration timeout = std::chrono::milliseconds(200);
  config::ByteSize max_buffered_bytes = config::ByteSize(uint64_t{128} << 20);
  uint32_t shards = 0;                  // 0 = two per usable CPU
  std::string wait_for_flush = "auto";  // auto, true, false
  std::vector<std::string> metadata_keys;  // one batcher per distinct combination of their values
  uint32_t metadata_cardinality_limit = 1000;

  template <class V>
  void visit(V& v) {
    v.field("send_batch_size", send_batch_size, "profiles that trigger a flush; 0 = only the timeout flushes");
    v.field("send_batch_max_size", send_batch_max_size, "upper bound of profiles per flushed request; 0 = no bound");
    v.field("timeout", timeout, "flush this long after the first batch of a request arrived; 0 = at once");
    v.field("max_buffered_bytes", max_buffered_bytes,
            "data held (pending + waiting for a downstream retry) before new batches are refused");
    v.field("shards", shards, "independent merge buffers, by resource; 0 = two per usable CPU");
    v.field("wait_for_flush", wait_for_flush,
            "acknowledge only once downstream took the data: auto (when a downstream exporter has a persistent "
            "queue), true, false");
    v.field("metadata_keys", metadata_keys,
            "request metadata keys (receivers' include_metadata) whose values keep batches apart, e.g. a tenant "
            "header; the batches sent carry these keys");
    v.field("metadata_cardinality_limit", metadata_cardinality_limit,
            "distinct metadata_keys value combinations held at once; data of one more is refused (retryable)");
  }
  void validate(config::ValidationContext& ctx) const;

  // Profiles held before new batches are refused: one nearly full request per shard plus 3 flushes'
  // worth waiting for the downstream; 0 = no profile cap (bytes only).
  uint64_t maxBufferedProfiles() const;
  // `shards`, or twice the usable CPUs when 0 (so two busy resources rarely share a shard).
  size_t shardCount() const;
};

}  // namespace proflow::processors::batch
