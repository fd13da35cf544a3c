#include "tests/support/hostile_otlp.h"

#include <cstdint>

namespace proflow::flat::testing {
namespace {

void varint(std::string& out, uint64_t v) {
  for (; v >= 0x80; v >>= 7) out.push_back(static_cast<char>(v | 0x80));
  out.push_back(static_cast<char>(v));
}
void key(std::string& out, uint32_t field, uint32_t wire_type) { varint(out, field << 3 | wire_type); }
void varintField(std::string& out, uint32_t field, uint64_t v) {
  key(out, field, 0);
  varint(out, v);
}
void lenField(std::string& out, uint32_t field, const std::string& payload) {
  key(out, field, 2);
  varint(out, payload.size());
  out += payload;
}
// A request whose one resource holds `resource_profiles_body`.
std::string request(const std::string& resource_profiles_body, const std::string& dictionary = {}) {
  std::string out;
  lenField(out, 1, resource_profiles_body);
  if (!dictionary.empty()) lenField(out, 2, dictionary);
  return out;
}
std::string inScope(const std::string& profile) {
  std::string scope, resource;
  lenField(scope, 2, profile);  // ScopeProfiles.profiles
  lenField(resource, 2, scope);  // ResourceProfiles.scope_profiles
  return resource;
}

}  // namespace

std::string interleavedProfileAttributes(int pairs) {
  std::string sample;
  varintField(sample, 2, 1);  // Sample.attribute_indices, unpacked
  std::string profile;
  for (int i = 0; i < pairs; ++i) {
    varintField(profile, 11, 1);  // Profile.attribute_indices, unpacked
    lenField(profile, 2, sample);  // Profile.samples
  }
  return request(inScope(profile));
}

std::string interleavedResourceAttributes(int pairs) {
  std::string kv;
  lenField(kv, 1, "k");  // KeyValue.key
  std::string resource, scope, scope_profiles;
  lenField(resource, 1, kv);        // Resource.attributes
  lenField(scope, 3, kv);           // InstrumentationScope.attributes
  lenField(scope_profiles, 1, scope);  // ScopeProfiles.scope
  std::string body;
  for (int i = 0; i < pairs; ++i) {
    lenField(body, 1, resource);        // ResourceProfiles.resource (merged)
    lenField(body, 2, scope_profiles);  // ResourceProfiles.scope_profiles
  }
  return request(body);
}

std::string repeatedArrayValue(int parts) {
  std::string element, array;
  varintField(element, 3, 1);  // AnyValue.int_value
  lenField(array, 1, element);  // ArrayValue.values
  std::string value;
  for (int i = 0; i < parts; ++i) lenField(value, 5, array);  // AnyValue.array_value, merged
  std::string attribute, dictionary;
  varintField(attribute, 1, 1);   // KeyValueAndUnit.key_strindex
  lenField(attribute, 2, value);  // KeyValueAndUnit.value
  lenField(dictionary, 6, std::string());  // attribute_table[0]: the zero value
  lenField(dictionary, 6, attribute);
  lenField(dictionary, 5, std::string());  // string_table: "", "k"
  lenField(dictionary, 5, "k");
  return request(inScope(std::string()), dictionary);
}

std::string keyValueSentInParts(int parts) {
  std::string entry, list, value;
  lenField(entry, 1, "e");     // KeyValue.key
  lenField(list, 1, entry);    // KeyValueList.values
  lenField(value, 6, list);    // AnyValue.kvlist_value
  std::string kv;
  for (int i = 0; i < parts; ++i) {
    lenField(kv, 1, "key");  // KeyValue.key, sent again
    lenField(kv, 2, value);  // KeyValue.value, merged
  }
  std::string resource, body;
  lenField(resource, 1, kv);
  lenField(body, 1, resource);
  return request(body);
}

}  // namespace proflow::flat::testing
