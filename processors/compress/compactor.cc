#include "processors/compress/compactor.h"

#include <optional>

#include "core/dictionary_builder.h"
#include "core/request_merger.h"
#include "processors/compress/sample_merge.h"
#include "processors/compress/stack_folding.h"

namespace proflow::processors::compress {
namespace {

template <class F>
void forEachProfile(otlp::Request& req, F f) {
  for (auto& rp : *req.mutable_resource_profiles())
    for (auto& sp : *rp.mutable_scope_profiles())
      for (auto& p : *sp.mutable_profiles()) f(&p);
}

}  // namespace

CompactStats compactRequest(otlp::Request& request, const CompressConfig& config) {
  CompactStats stats;
  stats.bytes_before = request.ByteSizeLong();
  if (config.max_stack_depth != 0 || config.folds()) {
    DictionaryBuilder dict(request.mutable_dictionary());
    forEachProfile(request, [&](otlp::Profile* p) {
      if (config.max_stack_depth != 0) stats.stacks_truncated += truncateStacks(p, dict, config.max_stack_depth);
      if (config.folds()) stats.samples_folded += foldSmallStacks(p, dict, config.max_nodes, config.min_fraction);
    });
  }
  MergeStats merge;
  if (config.drop_zero_samples) forEachProfile(request, [&](otlp::Profile* p) { dropZeroSamples(p, merge); });
  if (config.compact_dictionary) {
    otlp::Request fresh;
    RequestMerger merger(&fresh);
    merger.append(request);
    request = std::move(fresh);
  }
  if (config.merge_samples) forEachProfile(request, [&](otlp::Profile* p) { mergeSamples(p, merge); });
  stats.samples_merged = merge.merged;
  stats.zero_dropped = merge.zero_dropped;
  stats.bytes_after = request.ByteSizeLong();
  return stats;
}

}  // namespace proflow::processors::compress
