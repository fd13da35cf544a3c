// Pyroscope's text uploads as pprof: folded ("collapsed") lines `root;caller;leaf 12` and the `lines`
// format (one stack per line, each counting 1). Building a pprof lets the shared pprof -> OTLP
// conversion do the rest.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/formats/pprof/pprof_codec.h"
#include "core/status.h"
#include "receivers/pyroscope/profile_types.h"

namespace proflow::receivers::pyroscope {

struct FoldedInput {
  bool lines_format = false;  // `format=lines`: no value column, every line counts 1
  LegacyType type;
  int64_t sample_rate = 100;  // Hz, for types scaled by rate
  int64_t time_ns = 0;
  int64_t duration_ns = 0;
};

// Identical stacks are merged. Empty lines are skipped; a line without a valid non-negative integer
// value (folded) is an error naming the line number (kInvalidArgument).
Status foldedToPprof(std::string_view text, const FoldedInput& in, pprof::Profile* out);

}  // namespace proflow::receivers::pyroscope
