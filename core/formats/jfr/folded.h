// Folded stacks ("root;caller;leaf value" lines, the flame-graph text format) from converted profiles.
// Used by tests to compare against the JDK's own decoder and by the CLI (`--to folded`).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "core/flat/flat_batch.h"

namespace proflow::jfr {

struct FoldOptions {
  std::string_view sample_type;      // e.g. "cpu"; profiles with another sample type are ignored
  std::string_view period_type = {};  // optional filter (e.g. "mutex" vs "block" for contentions)
  bool count_events = false;          // value = number of events instead of the sum of values
  bool with_lines = false;            // frame names get ":<line>" when the line is known
  bool with_thread = false;           // the sample's thread.name becomes the root frame
};

// Stack (frames root first, inlined frames expanded, joined by ';') -> value.
std::map<std::string, int64_t> foldStacks(const flat::Batch& batch, const FoldOptions& options);

// One "stack value" line per entry, sorted by stack.
std::string formatFolded(const std::map<std::string, int64_t>& stacks);

// JFR file -> folded text of one sample type. Returns false (and the error) when the input is malformed;
// `out` then still holds the stacks of the complete chunks.
bool jfrToFolded(std::span<const uint8_t> jfr, const FoldOptions& options, std::string* out, std::string* error);

}  // namespace proflow::jfr
