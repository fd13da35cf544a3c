// Counts the bytes live on the heap through operator new (std containers, strings, protobuf messages
// and arena blocks) and their peak, for tests that check a memory estimate bounds what decoding
// allocates. Linking heap_peak.cc replaces the global operator new/delete of the whole test program:
// add it only to the test executables that use it.
#pragma once

#include <cstddef>

namespace proflow::testing {

// Bytes allocated with operator new and not yet deleted (usable sizes, so slack counts).
size_t heapInUse();
// The highest heapInUse() since the last resetHeapPeak().
size_t heapPeak();
void resetHeapPeak();

}  // namespace proflow::testing
