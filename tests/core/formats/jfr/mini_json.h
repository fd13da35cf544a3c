// A small JSON DOM reader, enough to read `jfr print --json` output in tests (no JSON library is among the
// project's dependencies).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace proflow::testing {

struct Json {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject } type = Type::kNull;
  bool boolean = false;
  double number = 0;
  std::string text;  // string value, or the literal of a number
  std::vector<Json> items;
  std::map<std::string, Json, std::less<>> fields;

  // Member lookup; a shared null value when absent or not an object.
  const Json& operator[](std::string_view key) const;
  bool isNull() const { return type == Type::kNull; }
};

// Parses `text`; returns false (and the position in `error`) on malformed input.
bool parseJson(std::string_view text, Json* out, std::string* error);

}  // namespace proflow::testing
