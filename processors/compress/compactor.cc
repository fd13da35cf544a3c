#include "processors/compress/compactor.h"

#include "core/flat/flat_encode.h"
#include "core/flat/flat_merge.h"
#include "core/flat/flat_split.h"
#include "processors/compress/sample_merge.h"
#include "processors/compress/stack_folding.h"

namespace proflow::processors::compress {

CompactStats compactBatch(flat::Batch& batch, const CompressConfig& config) {
  CompactStats stats;
  stats.bytes_before = flat::encodedSize(batch);
  if (config.max_stack_depth != 0 || config.folds()) {
    flat::DictionaryIndex dict(&batch);
    for (const flat::Profile& p : batch.profiles) {
      if (config.max_stack_depth != 0) stats.stacks_truncated += truncateStacks(dict, p.samples, config.max_stack_depth);
      if (config.folds()) stats.samples_folded += foldSmallStacks(dict, p.samples, config.max_nodes, config.min_fraction);
    }
  }
  MergeStats merge;
  std::vector<bool> keep;
  if (config.drop_zero_samples) {
    keep.assign(batch.samples.size(), true);
    for (const flat::Profile& p : batch.profiles) dropZeroSamples(batch, p.samples, keep, merge);
  }
  if (config.compact_dictionary) {
    flat::Batch fresh;
    flat::Merger merger(&fresh);
    merger.append(batch, flat::Merger::Selection{.samples = keep});
    batch = std::move(fresh);
  } else if (!keep.empty()) {
    flat::keepRows(batch, keep);
  }
  if (config.merge_samples) {
    keep.assign(batch.samples.size(), true);
    for (const flat::Profile& p : batch.profiles) mergeSamples(batch, p.samples, keep, merge);
    if (merge.merged != 0) flat::keepRows(batch, keep);
  }
  batch.shrinkToFit();
  stats.samples_merged = merge.merged;
  stats.zero_dropped = merge.zero_dropped;
  stats.bytes_after = flat::encodedSize(batch);
  return stats;
}

}  // namespace proflow::processors::compress
