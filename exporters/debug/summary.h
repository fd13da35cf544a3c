// Human-readable summaries of a batch, as pure functions so tests check the text without a logger.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/flat/flat_batch.h"

namespace proflow::exporters::debug {

// "ProfilesBatch resources=2 profiles=3 samples=57"
std::string batchLine(const flat::Batch& batch);

// One line per profile:
// "Profile service=checkout type=cpu/nanoseconds samples=3 total=303 time=2023-11-14T22:13:20.000Z duration=10s"
// With `top_stacks` > 0, each profile line is followed by its heaviest stacks:
// "  #1 202 (66.7%) memcpy <- handle_request <- main"
std::vector<std::string> profileLines(const flat::Batch& batch, size_t top_stacks);

// Frames of a stack, leaf first: function names resolved through the dictionary (inlined functions
// expanded, innermost first), or mapping file + address for unsymbolized frames.
std::vector<std::string> stackFrameNames(const flat::Batch& batch, int32_t stack_index);

}  // namespace proflow::exporters::debug
