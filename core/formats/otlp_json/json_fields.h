// The OTLP/JSON decoder's field names (both spellings protobuf's parser takes) and its scalar
// readers, as protobuf reads each field's JSON forms. Internal to core/formats/otlp_json.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "core/util/ascii.h"
#include "core/util/json/json_reader.h"

namespace proflow::otlp_json::fields {

using json::Token;

// A message's fields by number (index 0 unused): {lowerCamelCase, snake_case}.
struct FieldName {
  std::string_view camel, snake;
};
template <size_t N>
inline uint32_t fieldOf(const FieldName (&names)[N], std::string_view key) {
  for (uint32_t i = 1; i < N; ++i)
    if (key == names[i].camel || key == names[i].snake) return i;
  return 0;
}

constexpr FieldName kRequest[] = {{}, {"resourceProfiles", "resource_profiles"}, {"dictionary", "dictionary"}};
constexpr FieldName kResourceProfiles[] = {
    {}, {"resource", "resource"}, {"scopeProfiles", "scope_profiles"}, {"schemaUrl", "schema_url"}};
constexpr FieldName kResource[] = {
    {}, {"attributes", "attributes"}, {"droppedAttributesCount", "dropped_attributes_count"}, {"entityRefs", "entity_refs"}};
constexpr FieldName kEntityRef[] = {
    {}, {"schemaUrl", "schema_url"}, {"type", "type"}, {"idKeys", "id_keys"}, {"descriptionKeys", "description_keys"}};
constexpr FieldName kKeyValue[] = {{}, {"key", "key"}, {"value", "value"}, {"keyStrindex", "key_strindex"}};
constexpr FieldName kAnyValue[] = {{},
                                   {"stringValue", "string_value"},
                                   {"boolValue", "bool_value"},
                                   {"intValue", "int_value"},
                                   {"doubleValue", "double_value"},
                                   {"arrayValue", "array_value"},
                                   {"kvlistValue", "kvlist_value"},
                                   {"bytesValue", "bytes_value"},
                                   {"stringValueStrindex", "string_value_strindex"}};
constexpr FieldName kList[] = {{}, {"values", "values"}};
constexpr FieldName kScopeProfiles[] = {{}, {"scope", "scope"}, {"profiles", "profiles"}, {"schemaUrl", "schema_url"}};
constexpr FieldName kScope[] = {
    {}, {"name", "name"}, {"version", "version"}, {"attributes", "attributes"}, {"droppedAttributesCount", "dropped_attributes_count"}};
constexpr FieldName kValueType[] = {{}, {"typeStrindex", "type_strindex"}, {"unitStrindex", "unit_strindex"}};
constexpr FieldName kProfile[] = {{},
                                  {"sampleType", "sample_type"},
                                  {"samples", "samples"},
                                  {"timeUnixNano", "time_unix_nano"},
                                  {"durationNano", "duration_nano"},
                                  {"periodType", "period_type"},
                                  {"period", "period"},
                                  {"profileId", "profile_id"},
                                  {"droppedAttributesCount", "dropped_attributes_count"},
                                  {"originalPayloadFormat", "original_payload_format"},
                                  {"originalPayload", "original_payload"},
                                  {"attributeIndices", "attribute_indices"}};
constexpr FieldName kSample[] = {{},
                                 {"stackIndex", "stack_index"},
                                 {"attributeIndices", "attribute_indices"},
                                 {"linkIndex", "link_index"},
                                 {"values", "values"},
                                 {"timestampsUnixNano", "timestamps_unix_nano"}};
constexpr FieldName kDictionary[] = {{},
                                     {"mappingTable", "mapping_table"},
                                     {"locationTable", "location_table"},
                                     {"functionTable", "function_table"},
                                     {"linkTable", "link_table"},
                                     {"stringTable", "string_table"},
                                     {"attributeTable", "attribute_table"},
                                     {"stackTable", "stack_table"}};
constexpr FieldName kMapping[] = {{},
                                  {"memoryStart", "memory_start"},
                                  {"memoryLimit", "memory_limit"},
                                  {"fileOffset", "file_offset"},
                                  {"filenameStrindex", "filename_strindex"},
                                  {"attributeIndices", "attribute_indices"}};
constexpr FieldName kLocation[] = {
    {}, {"mappingIndex", "mapping_index"}, {"address", "address"}, {"lines", "lines"}, {"attributeIndices", "attribute_indices"}};
constexpr FieldName kLine[] = {{}, {"functionIndex", "function_index"}, {"line", "line"}, {"column", "column"}};
constexpr FieldName kFunction[] = {{},
                                   {"nameStrindex", "name_strindex"},
                                   {"systemNameStrindex", "system_name_strindex"},
                                   {"filenameStrindex", "filename_strindex"},
                                   {"startLine", "start_line"}};
constexpr FieldName kLink[] = {{}, {"traceId", "trace_id"}, {"spanId", "span_id"}};
constexpr FieldName kAttribute[] = {{}, {"keyStrindex", "key_strindex"}, {"value", "value"}, {"unitStrindex", "unit_strindex"}};

// A bool as a string, the words protobuf's parser takes (either case): true/t/yes/y/1, false/f/no/n/0.
inline bool boolText(std::string_view s, bool* out) {
  for (std::string_view word : {"true", "t", "yes", "y", "1"})
    if (iequals(s, word)) return *out = true, true;
  for (std::string_view word : {"false", "f", "no", "n", "0"})
    if (iequals(s, word)) return *out = false, true;
  return false;
}

// An integral JSON number (any form: 12, 1.0, 1e2) or a decimal string (optional '+', leading zeros)
// as protobuf reads integer fields, within T's range.
template <class T>
bool integer(Token t, std::string_view text, T* out) {
  if (t == Token::kString) {
    if (!text.empty() && text[0] == '+') {
      text.remove_prefix(1);
      if (!text.empty() && text[0] == '-') return false;
    }
    if (text.empty()) return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
    return ec == std::errc() && end == text.data() + text.size();
  }
  if (t != Token::kNumber) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  if (ec == std::errc() && end == text.data() + text.size()) return true;
  if (text.find_first_of(".eE") == std::string_view::npos) return false;  // an integer out of range
  double d;
  if (!json::parseDouble(text, &d) || d != std::trunc(d)) return false;
  // The type's range as doubles; both bounds are exact (max + 1 is a power of two).
  constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
  constexpr double past = static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
  if (!(d >= lo && d < past)) return false;
  *out = static_cast<T>(d);
  return true;
}

}  // namespace proflow::otlp_json::fields
