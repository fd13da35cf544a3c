// Interning tables over a protobuf ProfilesDictionary, for tests that build their input as an
// otlp::Request (the daemon interns into the flat batch: core/flat/flat_merge.h): adding an entry
// that already exists returns the existing index. Index 0 of every table is the zero value
// (OTLP rule) and is created on construction if missing.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/index_set.h"
#include "core/model/otlp_types.h"

namespace proflow {

class DictionaryBuilder {
 public:
  // Indexes the entries `dict` already holds. `dict` must outlive the builder; entries added through
  // other means afterwards are not seen by the builder.
  explicit DictionaryBuilder(otlp::Dictionary* dict);

  DictionaryBuilder(const DictionaryBuilder&) = delete;
  DictionaryBuilder& operator=(const DictionaryBuilder&) = delete;

  otlp::Dictionary& dictionary() { return *dict_; }
  const otlp::Dictionary& dictionary() const { return *dict_; }

  int32_t string(std::string_view s);
  int32_t function(const otlp::Function& f);
  int32_t function(std::string_view name, std::string_view system_name, std::string_view filename,
                   int64_t start_line = 0);
  int32_t mapping(const otlp::Mapping& m);
  int32_t location(const otlp::Location& l);
  int32_t stack(std::span<const int32_t> location_indices);
  int32_t link(std::string_view trace_id, std::string_view span_id);
  int32_t attribute(const otlp::KeyValueAndUnit& kv);
  int32_t attribute(std::string_view key, const otlp::AnyValue& value, std::string_view unit = {});
  int32_t stringAttribute(std::string_view key, std::string_view value);
  int32_t intAttribute(std::string_view key, int64_t value, std::string_view unit = {});
  int32_t boolAttribute(std::string_view key, bool value);
  int32_t doubleAttribute(std::string_view key, double value, std::string_view unit = {});

  // Entries a converter expects to add (it knows its input's table sizes): sizes the index sets and
  // tables once instead of rehashing and regrowing them on the way.
  struct Expected {
    size_t strings = 0, functions = 0, mappings = 0, locations = 0, stacks = 0;
  };
  void reserve(const Expected& e);

  // Looks an entry up without adding it; -1 when absent.
  int32_t findString(std::string_view s) const;

 private:
  void ensureZeroEntries();
  void indexExisting();
  // Interns the attribute whose identity attributeKey() left in key_scratch_; `set_value` fills the
  // value of a new entry.
  template <class SetValue>
  int32_t internAttribute(int32_t key, int32_t unit, const SetValue& set_value);
  // Writes the value identity of an attribute (strings resolved) into `out`, replacing its content.
  void attributeKey(const otlp::KeyValueAndUnit& kv, std::string& out) const;

  otlp::Dictionary* dict_;
  IndexSet strings_, functions_, mappings_, locations_, stacks_, links_, attributes_;
  // Reused buffers for attribute identities (avoid an allocation per lookup).
  std::string key_scratch_;
  mutable std::string cmp_scratch_;
};

// Reads a string from the table, "" when the index is out of range.
std::string_view dictString(const otlp::Dictionary& dict, int32_t index);

// Value identity of an AnyValue with string indexes resolved, for comparing and hashing.
void appendValueKey(std::string& out, const otlp::AnyValue& v, const otlp::Dictionary& dict);

}  // namespace proflow
