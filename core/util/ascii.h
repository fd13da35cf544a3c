// ASCII text helpers: the one trim, case-insensitive compare and lowercase of production code.
// ASCII only on purpose: they serve protocol tokens (header names, media types, tag keys, units),
// where locale-dependent case rules would be wrong.
#pragma once

#include <string>
#include <string_view>

namespace proflow {

constexpr bool isAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
constexpr char asciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// `s` without leading and trailing ASCII whitespace (space, tab, CR, LF, FF, VT).
constexpr std::string_view trim(std::string_view s) {
  while (!s.empty() && isAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

// True when `a` and `b` are equal but for the case of ASCII letters.
constexpr bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (asciiLower(a[i]) != asciiLower(b[i])) return false;
  return true;
}

// True when `s` starts with `prefix` but for the case of ASCII letters.
constexpr bool istartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

// `s` with ASCII letters lowercased.
std::string toLowerAscii(std::string_view s);

}  // namespace proflow
