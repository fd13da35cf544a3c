// Configuration of the `batch` processor.
#pragma once

#include <chrono>
#include <cstdint>

#include "core/config/config_reader.h"
#include "core/config/config_types.h"

namespace proflow::processors::batch {

struct BatchProcessorConfig {
  uint32_t send_batch_size = 256;
  uint32_t send_batch_max_size = 0;
  config::Duration timeout = std::chrono::milliseconds(200);
  config::ByteSize max_buffered_bytes = config::ByteSize(uint64_t{128} << 20);

  template <class V>
  void visit(V& v) {
    v.field("send_batch_size", send_batch_size, "profiles that trigger a flush; 0 = only the timeout flushes");
    v.field("send_batch_max_size", send_batch_max_size, "upper bound of profiles per flushed request; 0 = no bound");
    v.field("timeout", timeout, "flush this long after the first batch of a request arrived; 0 = at once");
    v.field("max_buffered_bytes", max_buffered_bytes,
            "data held (pending + waiting for a downstream retry) before new batches are refused");
  }
  void validate(config::ValidationContext& ctx) const;

  // Profiles held before new batches are refused: 4 flushes' worth; 0 = no profile cap (bytes only).
  uint64_t maxBufferedProfiles() const;
};

}  // namespace proflow::processors::batch
