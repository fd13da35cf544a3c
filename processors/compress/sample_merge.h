// Lossless sample-level compaction of one profile (its rows of the batch's sample columns), per the
// OTLP identity rule: samples with the same {stack_index, set of attribute_indices, link_index} are
// one sample. Aggregated samples (no timestamps) sum their values element-wise; timestamped samples
// append values and timestamps. Both steps unselect the rows that go in `keep` (flat::keepRows
// removes them) and write changed values and timestamps as new runs of their columns.
#pragma once

#include <cstdint>
#include <vector>

#include "core/flat/flat_batch.h"

namespace proflow::processors::compress {

struct MergeStats {
  uint64_t merged = 0;        // samples folded into another one
  uint64_t zero_dropped = 0;  // samples (or timestamped events) whose value was 0
};

// Drops samples whose values are all zero (and zero-valued events of timestamped samples). A sample
// with timestamps and no values counts 1 per timestamp and is never zero.
void dropZeroSamples(flat::Batch& b, flat::Range rows, std::vector<bool>& keep, MergeStats& stats);

// Merges samples with the same identity and shape into the first of them. Indexes must be canonical
// (deduplicated dictionary) for equal entries to be recognised.
void mergeSamples(flat::Batch& b, flat::Range rows, std::vector<bool>& keep, MergeStats& stats);

}  // namespace proflow::processors::compress
