// flat::Batch -> OTLP ExportProfilesServiceRequest bytes, in protobuf's field order. One pass over
// the batch computes every message size (kept in a side table, as protobuf caches sizes), so the
// output is allocated once at its exact size and written without copies.
#pragma once

#include <cstddef>
#include <string>

#include "core/flat/flat_batch.h"

namespace proflow::flat {

// Exact size of encode(batch).
size_t encodedSize(const Batch& batch);

std::string encode(const Batch& batch);
// Appends to `out`.
void encodeTo(const Batch& batch, std::string* out);

}  // namespace proflow::flat
