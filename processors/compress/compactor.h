// The whole compaction of one batch, usable outside a pipeline (the bench calls it directly).
#pragma once

#include <cstdint>

#include "core/flat/flat_batch.h"
#include "processors/compress/config.h"

namespace proflow::processors::compress {

struct CompactStats {
  uint64_t bytes_before = 0;  // encoded (OTLP wire) size in
  uint64_t bytes_after = 0;   // and out
  uint64_t samples_merged = 0;
  uint64_t zero_dropped = 0;
  uint64_t stacks_truncated = 0;  // samples whose stack was cut by max_stack_depth
  uint64_t samples_folded = 0;    // samples moved under an [other] frame
};

// Order matters: the lossy steps rewrite stacks in the incoming dictionary, zero samples go before
// re-interning so what only they used becomes an orphan, re-interning makes equal entries share one
// index, and only then can samples with equal identity be recognised and merged.
CompactStats compactBatch(flat::Batch& batch, const CompressConfig& config);

}  // namespace proflow::processors::compress
