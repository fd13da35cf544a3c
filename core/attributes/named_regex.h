// Regular expressions with named groups, `(?P<name>...)` (Go, RE2, Python) or `(?<name>...)`, on top of
// std::regex, whose ECMAScript grammar has no named groups: the names are stripped into plain groups
// and remembered with their group numbers.
#pragma once

#include <cstddef>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace proflow::attributes {

struct NamedRegex {
  std::regex re;
  std::vector<std::pair<std::string, size_t>> groups;  // name -> submatch number, in pattern order
};

// Rewrites named groups into plain ones; fills `groups`. Returns the ECMAScript pattern, or nullopt
// with `error` set when a group name is malformed or repeated.
std::optional<std::string> stripGroupNames(std::string_view pattern, std::vector<std::pair<std::string, size_t>>* groups,
                                           std::string* error);

// stripGroupNames + compile. nullopt with `error` set when the pattern is invalid.
std::optional<NamedRegex> compileNamedRegex(std::string_view pattern, std::string* error);

// Compiles a plain regex (ECMAScript); nullopt with `error` set when invalid.
std::optional<std::regex> compileRegex(std::string_view pattern, std::string* error);

}  // namespace proflow::attributes
