#include "core/attributes/named_regex.h"

#include <cctype>

namespace proflow::attributes {
namespace {

bool validName(std::string_view n) {
  if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0]))) return false;
  for (char c : n)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// Length of the named-group opener at `p` ("(?P<" or "(?<", not the lookbehinds "(?<=" "(?<!"), 0 if none.
size_t namedOpener(std::string_view p, size_t i) {
  if (p.compare(i, 4, "(?P<") == 0) return 4;
  if (p.compare(i, 3, "(?<") == 0 && i + 3 < p.size() && p[i + 3] != '=' && p[i + 3] != '!') return 3;
  return 0;
}

}  // namespace

std::optional<std::string> stripGroupNames(std::string_view p, std::vector<std::pair<std::string, size_t>>* groups,
                                           std::string* error) {
  std::string out;
  out.reserve(p.size());
  size_t group = 0;
  bool in_class = false;  // inside [...], where '(' is a literal
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {  // an escaped character is copied as is
      out += c;
      out += p[++i];
      continue;
    }
    if (in_class) {
      in_class = c != ']';
      out += c;
      continue;
    }
    if (c == '[') {
      in_class = true;
      out += c;
      continue;
    }
    if (c != '(') {
      out += c;
      continue;
    }
    if (size_t n = namedOpener(p, i)) {
      size_t close = p.find('>', i + n);
      std::string_view name = close == std::string_view::npos ? std::string_view() : p.substr(i + n, close - i - n);
      if (!validName(name)) {
        *error = "invalid group name at offset " + std::to_string(i) + " (letters, digits and _ only)";
        return std::nullopt;
      }
      for (const auto& g : *groups)
        if (g.first == name) {
          *error = "group name '" + std::string(name) + "' used twice";
          return std::nullopt;
        }
      groups->emplace_back(std::string(name), ++group);
      out += '(';
      i = close;
      continue;
    }
    // "(?:", "(?=", "(?!" do not capture; every other '(' opens a numbered group.
    if (i + 1 >= p.size() || p[i + 1] != '?') ++group;
    out += c;
  }
  return out;
}

std::optional<std::regex> compileRegex(std::string_view pattern, std::string* error) {
  try {
    return std::regex(pattern.begin(), pattern.end(), std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    *error = std::string("invalid regular expression: ") + e.what();
    return std::nullopt;
  }
}

std::optional<NamedRegex> compileNamedRegex(std::string_view pattern, std::string* error) {
  NamedRegex r;
  auto stripped = stripGroupNames(pattern, &r.groups, error);
  if (!stripped) return std::nullopt;
  auto re = compileRegex(*stripped, error);
  if (!re) return std::nullopt;
  r.re = std::move(*re);
  return r;
}

}  // namespace proflow::attributes
