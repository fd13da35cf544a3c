// The one regular-expression engine of every pattern a config can hold: RE2 (linear time, no
// recursion, no backtracking), so a hostile pattern or a megabyte-long attribute value cannot hang or
// crash a worker. Named groups are written `(?P<name>...)` (Go, RE2, Python) or `(?<name>...)`
// (rewritten to the former, which Debian 12's RE2 still requires). The dialect is documented once in
// core/attributes/README.md.
#pragma once

#include <re2/re2.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace proflow::attributes {

// Compiled once at start-up, then shared read-only by every worker (RE2 matching is thread-safe).
using Regex = std::shared_ptr<const re2::RE2>;

// Rewrites `(?<name>` into `(?P<name>`; every other byte is kept (lookbehinds stay, and RE2 refuses
// them). Appends the group names, in pattern order, to `names` when given.
std::string toRe2Syntax(std::string_view pattern, std::vector<std::string>* names = nullptr);

// Compiles a pattern of the documented dialect; nullptr with `error` set (RE2's own message) when invalid.
Regex compileRegex(std::string_view pattern, std::string* error);

// True when the pattern matches anywhere in `text` (anchor it with ^...$ for the whole text).
bool regexSearch(const re2::RE2& re, std::string_view text);

struct NamedRegex {
  Regex re;
  std::vector<std::pair<std::string, int>> groups;  // name -> capture group number, in pattern order
};

// compileRegex + the names of its groups. nullopt with `error` set when the pattern is invalid.
std::optional<NamedRegex> compileNamedRegex(std::string_view pattern, std::string* error);

struct NamedCapture {
  std::string_view name;   // points into NamedRegex::groups
  std::string_view value;  // points into the searched text
};

// Searches `text`; on a match returns every named group that took part in it, in pattern order.
std::optional<std::vector<NamedCapture>> searchNamed(const NamedRegex& re, std::string_view text);

}  // namespace proflow::attributes
