// Applies the symbolizer to a batch: every location with an address and a mapping
// but no lines gets its inline chain as lines (innermost first), functions interned in the shared
// dictionary, and its mapping marked symbolized (pprof.mapping.has_* attributes). Locations that
// cannot be symbolized are left exactly as they were. Shared by the processor and the CLI.
#pragma once

#include <cstdint>

#include "core/flat/flat_batch.h"
#include "processors/symbolize/config.h"
#include "processors/symbolize/symbolizer.h"

namespace proflow::symbolize {

struct SymbolizeCounts {
  uint64_t symbolized = 0;  // locations that got lines
  uint64_t not_found = 0;   // no symbols for the binary, or none covering the address
  uint64_t errors = 0;      // the binary's symbols were found but unusable (corrupt file)
};

// Edits `batch` in place; blocks on file and network I/O, so run it on a worker thread.
SymbolizeCounts symbolizeBatch(Symbolizer& symbolizer, flat::Batch& batch, AddressMode mode);

// The binary a mapping names, read from its build id attributes and file name.
BinaryRef binaryRefOf(const flat::Batch& batch, const flat::Mapping& mapping);

}  // namespace proflow::symbolize
