// The last check of a batch before it is encoded for an OTLP peer. OTLP string fields must be UTF-8
// and a peer refuses the whole request when one is not (protobuf will not parse it), so a single bad
// label would cost every profile batched with it, on every retry. Receivers and edits keep text
// valid; this catches whatever got past them.
#pragma once

#include <cstddef>

#include "core/flat/flat_batch.h"

namespace proflow::flat {

// How many string fields of `b` are not valid UTF-8: dictionary strings, string values and inline
// keys of attributes (nested lists included), scope names and versions, schema URLs and
// original_payload_format. Bytes fields may hold anything and are not looked at.
size_t countInvalidUtf8(const Batch& b);

// Repairs those fields as the converters repair foreign text (sanitizeUtf8: each byte that starts
// no well-formed sequence becomes U+FFFD); returns how many fields it changed.
size_t repairInvalidUtf8(Batch& b);

// `b` itself when every string is valid, else a repaired copy held in `*scratch`; `*repaired` is the
// count of fields repaired.
const Batch& withValidUtf8(const Batch& b, Batch* scratch, size_t* repaired);

}  // namespace proflow::flat
