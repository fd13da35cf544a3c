// What a profiles request means, independent of how it is laid out: every sample spelled out with
// everything it references (resource, scope, profile fields, the stack's frames with their
// functions, files, lines and mappings, attributes with keys, values and units, the link). Two
// requests that carry the same profiles expand alike even when a hop reordered, deduplicated or
// grew the dictionary, moved attributes between inline and table form, or split and merged requests.
// An id of all zero bytes reads as no id at all (the Collector writes it as an absent field).
#pragma once

#include <string>
#include <vector>

#include "core/model/otlp_types.h"

namespace proflow::testing {

// One line per sample, and one per profile (its fields and sample count, so that a profile without
// samples is compared too). Sorted: compare two expansions with ==.
std::vector<std::string> expandSamples(const otlp::Request& request);
std::vector<std::string> expandSamples(const std::vector<otlp::Request>& requests);

// What two sorted expansions disagree on, readably: the first few lines found only in one of them.
// Empty when they are equal.
std::string expansionDifference(const std::vector<std::string>& expected, const std::vector<std::string>& actual,
                                size_t max_lines = 4);

}  // namespace proflow::testing
