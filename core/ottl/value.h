// The values OTTL expressions compute with: nil, bool, int64, float64, string, bytes, lists and maps
// (maps keep their insertion order, as OTLP attribute lists do). Attribute values convert from and
// to OTLP AnyValues at the edges; everything in between works on this one type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/flat/flat_batch.h"
#include "core/model/otlp_types.h"

namespace proflow::ottl {

struct Value {
  enum class Kind : uint8_t { kNil, kBool, kInt, kDouble, kString, kBytes, kList, kMap };

  Kind kind = Kind::kNil;
  bool b = false;
  int64_t i = 0;
  double d = 0;
  std::string s;                  // kString, kBytes
  std::vector<Value> items;       // kList elements; kMap values
  std::vector<std::string> keys;  // kMap keys, parallel to items

  static Value nil() { return {}; }
  static Value boolean(bool v);
  static Value integer(int64_t v);
  static Value floating(double v);
  static Value string(std::string v);
  static Value bytes(std::string v);
  static Value list(std::vector<Value> v);
  static Value map();

  bool isNil() const { return kind == Kind::kNil; }
  bool isString() const { return kind == Kind::kString; }
  bool isMap() const { return kind == Kind::kMap; }
  bool isList() const { return kind == Kind::kList; }

  // Map access: nullptr when absent (or not a map).
  const Value* find(std::string_view key) const;
  Value* find(std::string_view key);
  // Inserts or replaces `key`, keeping the position of an existing entry.
  void put(std::string_view key, Value v);
  bool erase(std::string_view key);
};

const char* kindName(Value::Kind k);

// The value as text: strings as they are, numbers in decimal (floats as Go's strconv 'f' -1 would
// print them), bools as true/false, bytes in lowercase hex, lists and maps as JSON, nil as "".
std::string toText(const Value& v);

// OTTL comparison rules: numbers compare across int/float, strings and bools among themselves,
// other kinds only for (in)equality. nullopt: the pair has no order (only != holds).
std::optional<int> compare(const Value& a, const Value& b);
bool equal(const Value& a, const Value& b);

// OTLP AnyValue <-> Value. `b`, when given, resolves string_value_strindex / key_strindex
// references (reference-based attributes) through its string table.
Value fromAnyValue(const otlp::AnyValue& v, const flat::Batch* b = nullptr);
otlp::AnyValue toAnyValue(const Value& v);

}  // namespace proflow::ottl
