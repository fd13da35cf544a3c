// Reading attribute lists of a flat batch into the editable form the actions work on (AttrList) and
// writing the edited list back. Untouched entries are written back as they came (references into
// the string table stay valid: it is only appended to); changed and new ones are written inline
// (resource and scope attributes) or interned into the dictionary (sample attributes).
#pragma once

#include <span>
#include <string>

#include "core/attributes/actions.h"
#include "core/flat/flat_batch.h"
#include "core/flat/flat_merge.h"

namespace proflow::attributes {

// The value as a protobuf AnyValue, a top-level string reference resolved to the string itself.
otlp::AnyValue toAnyValue(const flat::Batch& b, const flat::Value& v);
// Stores `v` in the batch: strings and bytes into the arena, lists as their encoded message.
flat::Value storeValue(flat::Batch& b, const otlp::AnyValue& v);

// Resource or scope attributes (`range` of b.key_values). `origin` is the position in the range.
AttrList readKeyValues(const flat::Batch& b, flat::Range range);
// Writes `attrs` (read from `*range`) back; `*range` is updated. The old entries are overwritten
// when the new list fits, else the list moves to the end of b.key_values.
void writeKeyValues(flat::Batch& b, flat::Range* range, const AttrList& attrs);

// Dictionary attributes by index (a sample's or profile's list); indexes out of range are skipped.
// `origin` is the position in `indices`.
AttrList readIndexedAttributes(const flat::Batch& b, std::span<const int32_t> indices);
// The index list of `attrs` (read from `indices`): untouched entries keep their index, changed and
// new ones are interned through `dict` (an edited entry keeps its unit; a new one has none).
std::vector<int32_t> internAttributes(flat::DictionaryIndex& dict, std::span<const int32_t> indices,
                                      const AttrList& attrs);

}  // namespace proflow::attributes
