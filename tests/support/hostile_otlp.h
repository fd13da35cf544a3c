// OTLP profiles bodies built to make a decoder work more than their size suggests: repeated fields
// split by other fields of the same column, and list values sent in many parts (protobuf merges
// both). Each is a valid request that protobuf parses in linear time.
#pragma once

#include <string>

namespace proflow::flat::testing {

// One profile whose attribute_indices (Profile field 11, unpacked) alternate with `pairs` samples
// that have an attribute index each: both go to the batch's index column.
std::string interleavedProfileAttributes(int pairs);
// One resource sent `pairs` times (one attribute each), alternating with scopes that have an
// attribute each: both go to the batch's key-value column.
std::string interleavedResourceAttributes(int pairs);
// One dictionary attribute whose value carries `parts` array_value fields of one element each
// (merged: an array of `parts` elements).
std::string repeatedArrayValue(int parts);
// One resource attribute whose key and a kvlist_value part alternate `parts` times.
std::string keyValueSentInParts(int parts);

}  // namespace proflow::flat::testing
