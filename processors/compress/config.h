// Configuration of the `compress` processor.
#pragma once

#include <cstdint>

#include "core/config/config_reader.h"

namespace proflow::processors::compress {

struct CompressConfig {
  // Lossless steps, on by default.
  bool merge_samples = true;      // combine samples with the same stack, attribute set and link
  bool drop_zero_samples = true;  // samples whose every value is 0
  bool compact_dictionary = true; // re-intern: drops orphans, dedupes functions/locations/stacks
  // Lossy steps, off by default.
  uint32_t max_stack_depth = 0;   // keep the leaf-most depth-1 frames plus a `[truncated]` root; 0 = off
  uint32_t max_nodes = 0;         // keep this many heaviest stacks per profile, fold the rest; 0 = off
  double min_fraction = 0;        // fold stacks below this share of the profile total; 0 = off

  template <class V>
  void visit(V& v) {
    v.field("merge_samples", merge_samples, "merge samples with identical stack + attributes + link");
    v.field("drop_zero_samples", drop_zero_samples, "drop samples whose values are all zero");
    v.field("compact_dictionary", compact_dictionary, "rebuild the dictionary: drop orphans, dedupe entries");
    v.field("max_stack_depth", max_stack_depth, "lossy: truncate deeper stacks on the root side; 0 = off");
    v.field("max_nodes", max_nodes, "lossy: keep the N heaviest stacks per profile, fold the rest; 0 = off");
    v.field("min_fraction", min_fraction, "lossy: fold stacks below this share of the total, 0..1; 0 = off");
  }
  void validate(config::ValidationContext& ctx) const;

  bool folds() const { return max_nodes != 0 || min_fraction > 0; }
};

}  // namespace proflow::processors::compress
