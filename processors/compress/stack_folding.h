// Lossy stack pruning over the sample rows of one profile: both steps only rewrite stack indexes (values untouched), so every
// sample type's total is preserved exactly; samples that end up on the same stack are merged later.
#pragma once

#include <cstdint>

#include "core/flat/flat_merge.h"

namespace proflow::processors::compress {

// Stacks deeper than `max_depth` keep their max_depth-1 leaf-most frames plus a `[truncated]` frame at
// the root end. Returns the number of samples whose stack was cut.
uint64_t truncateStacks(flat::DictionaryIndex& dict, flat::Range rows, uint32_t max_depth);

// Keeps the `max_nodes` heaviest stacks (0 = no cap) that also hold at least `min_fraction` of the
// profile's total weight; every other stack becomes `[other]` under the longest root-side prefix it
// shares with a kept stack. Returns the number of samples moved.
uint64_t foldSmallStacks(flat::DictionaryIndex& dict, flat::Range rows, uint32_t max_nodes, double min_fraction);

// Weight of sample `row`: sum of |values|, or the number of timestamps when it has no values.
double sampleWeight(const flat::Batch& b, size_t row);

}  // namespace proflow::processors::compress
