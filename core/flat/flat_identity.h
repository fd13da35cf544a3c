// Identity text of flat values, attribute lists and resources: equal meaning gives equal text
// (reference-based and inline strings alike), so merges and routes can key on it.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/flat/flat_batch.h"
#include "core/model/otlp_types.h"

namespace proflow::flat {

// Appends a length-prefixed string (the unit identities are made of).
void putString(std::string& out, std::string_view s);
// The nested list of a kArray / kKvList value as a protobuf AnyValue (the decoder checked it).
otlp::AnyValue nestedMessage(const Value& v, const Batch& b);

// Resolves a dictionary string index to its text.
using StringResolver = std::function<std::string_view(int32_t)>;

// Identity of a protobuf AnyValue (the nested members of arrays and key-value lists; the tests'
// request-form interning), in the form appendValueIdentity gives the same value, appended.
void appendMessageIdentity(std::string& out, const otlp::AnyValue& v, const StringResolver& resolve);

// Value identity with reference-based strings resolved (equal meaning -> equal identity), appended.
void appendValueIdentity(std::string& out, const Value& v, const Batch& b, const StringResolver& resolve);

// Identity of resource or scope attributes (`key_values` of the batch): reference-based and inline
// forms of one attribute are equal, their order is ignored; the same text as keyValuesIdentity() of
// tests/support/request_merger.h gives for the protobuf form.
std::string keyValuesIdentity(const Batch& b, Range key_values);
// The identity of an attribute list from its attributes' identities (key, '\0', value identity),
// whatever their order.
std::string joinAttributeIdentities(std::vector<std::string> parts);
// Identity of a resource: its schema_url, '\n', its attributes' identity. The Merger combines
// resources of equal identity.
std::string resourceIdentity(const Batch& b, const Resource& r);

}  // namespace proflow::flat
