// A valid, CPU-profile-shaped pprof of a chosen size, for tests and drivers that need large bodies
// whose conversion costs what a real profile's does.
#pragma once

#include <cstddef>
#include <string>

namespace proflow::testing {

// Uncompressed pprof of at least `target_bytes`: 2 sample types (samples/count, cpu/nanoseconds),
// stacks 32 frames deep drawn from 5,000 functions, deterministic.
std::string cpuShapedPprof(size_t target_bytes);

}  // namespace proflow::testing
