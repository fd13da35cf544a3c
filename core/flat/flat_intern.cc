// DictionaryIndex's shortcuts for the attributes converters and receivers add (flat_merge.h).
#include "core/flat/flat_merge.h"

namespace proflow::flat {

int32_t DictionaryIndex::stringAttribute(std::string_view key, std::string_view value) {
  Attribute a;
  a.key_strindex = string(key);
  const size_t arena = b_->arena.size();
  a.value.kind = ValueKind::kString;
  a.value.bytes = b_->addBytes(value);
  const size_t before = b_->attributes.size();
  const int32_t index = attribute(a);
  if (b_->attributes.size() == before) b_->arena.resize(arena);  // found: the candidate's copy is not needed
  return index;
}

int32_t DictionaryIndex::boolAttribute(std::string_view key, bool value) {
  Attribute a;
  a.key_strindex = string(key);
  a.value.kind = ValueKind::kBool;
  a.value.scalar = value ? 1 : 0;
  return attribute(a);
}

}  // namespace proflow::flat
