// pprof drop_frames / keep_frames on OTLP stacks. A frame (a Location line) whose function name fully
// matches `drop` and not `keep` is removed together with everything it called: walking from the root,
// the first such frame cuts the stack there, so its cost moves to its caller (totals are unchanged).
// Inside an inlined Location (lines[0] innermost) the cut keeps only the lines outside the match.
#pragma once

#include <re2/re2.h>

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "core/flat/flat_merge.h"

namespace proflow::processors::filter {

class FramePruner {
 public:
  // `keep` may be null.
  FramePruner(const re2::RE2* drop, const re2::RE2* keep, flat::DictionaryIndex& dict)
      : drop_(drop), keep_(keep), dict_(dict) {}

  // The stack to use instead of `stack` (may be the same, or 0 when the root frame itself matched).
  int32_t prune(int32_t stack);

 private:
  // -1: keep the location whole; 0: drop it whole; >0: replace it with this (outer lines only) location.
  int32_t locationVerdict(int32_t location);
  bool dropped(int32_t function) const;

  const re2::RE2* drop_;
  const re2::RE2* keep_;
  flat::DictionaryIndex& dict_;
  std::unordered_map<int32_t, int32_t> stacks_;
  std::unordered_map<int32_t, int32_t> locations_;
};

}  // namespace proflow::processors::filter
