// Folded ("collapsed") stack text — `root;caller;leaf 12` per line, as flamegraph tools, perf's
// stackcollapse scripts, async-profiler's collapsed output and Pyroscope's folded uploads write it —
// turned into a pprof Profile, so the shared pprof -> flat batch conversion does the rest. A pure library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/flat/flat_batch.h"
#include "core/formats/pprof/conversion.h"
#include "core/formats/pprof/pprof_codec.h"
#include "core/util/status.h"

namespace proflow::folded {

struct FoldedOptions {
  bool lines_format = false;  // Pyroscope's `lines`: no value column, every line counts 1
  std::string sample_type = "samples";
  std::string sample_unit = "count";
  std::string period_type;  // optional pprof period type/unit/period
  std::string period_unit;
  int64_t period = 0;
  bool scale_by_period = false;  // values are counts of `period`-long samples: value *= period
  int64_t time_ns = 0;
  int64_t duration_ns = 0;
  // Distinct stacks (max_samples), frames per line (max_stack_depth) and frame length
  // (max_string_length); exceeding one is kPayloadTooLarge naming the line and the limit.
  pprof::ProfileLimits limits;
};

// Identical stacks are merged; frames become functions + locations (one per distinct name). Empty
// lines are skipped; a line without a valid non-negative integer count (unless lines_format) is an
// error naming the line number (kInvalidArgument); limits as above.
Status foldedToPprof(std::string_view text, const FoldedOptions& options, pprof::Profile* out);

// What foldedToPprof() allocates for `text`, on the high side, from one pass over it counting lines,
// frames (lines x depth) and distinct frame names (see the .cc for the sizes and why they bound it).
size_t estimateFoldedBytes(std::string_view text);

// foldedToPprof() + pprofToFlat() with the memory claimed ahead: `reserve(total)` (optional) is asked
// for held_bytes + estimateFoldedBytes(text) before parsing, then for held_bytes + the parsed profile
// + what conversion will hold before converting. Its refusal is returned as is.
Status foldedToFlat(std::string_view text, const FoldedOptions& options, const pprof::PprofToOtlpOptions& convert,
                    size_t held_bytes, const std::function<Status(size_t bytes)>& reserve, flat::Batch* out);

}  // namespace proflow::folded
