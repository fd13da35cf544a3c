// JFR recordings and folded text shaped to convert much larger than they are, for the memory-estimate
// tests and the hostile-input replay: every byte of them becomes output or lookup tables.
#pragma once

#include <string>

namespace proflow::testing {

// `stacks` stack traces of `depth` frames, every frame on its own line number (so each is a distinct
// Location), each stack sampled once: about 5 bytes per frame on the wire.
std::string jfrDistinctDeepStacks(int stacks, int depth);

// `events` execution samples on one stack, each with its own span id (so each is a distinct OTLP
// sample with its own link): about 20 bytes per event on the wire.
std::string jfrDistinctSpans(int events);

// Folded text of `lines` lines of `depth` frames, every frame name distinct.
std::string foldedDistinctFrames(int lines, int depth);

}  // namespace proflow::testing
