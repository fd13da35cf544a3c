#include "core/attributes/named_regex.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/config/config_errors.h"

namespace proflow::attributes {
namespace {

re2::StringPiece piece(std::string_view s) { return re2::StringPiece(s.data(), s.size()); }

// Length of a character class starting at `i` ('['), so that '(' inside it is not taken for a group.
// A ']' right after '[' or '[^' is a literal, as in RE2.
size_t classLength(std::string_view p, size_t i) {
  size_t j = i + 1;
  if (j < p.size() && p[j] == '^') ++j;
  if (j < p.size() && p[j] == ']') ++j;
  for (; j < p.size(); ++j) {
    if (p[j] == '\\') ++j;
    else if (p[j] == ']') return j - i + 1;
  }
  return p.size() - i;  // unterminated: RE2 reports it
}

// Length of a named-group opener at `i`: "(?P<" or "(?<" (not the lookbehinds "(?<=" "(?<!"); 0 if none.
size_t namedOpener(std::string_view p, size_t i) {
  if (p.compare(i, 4, "(?P<") == 0) return 4;
  if (p.compare(i, 3, "(?<") == 0 && i + 3 < p.size() && p[i + 3] != '=' && p[i + 3] != '!') return 3;
  return 0;
}

bool validGroupName(std::string_view n) {
  if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0]))) return false;
  return std::all_of(n.begin(), n.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// Debian 12's RE2 takes a name that starts with a digit, and the same name twice: refused here so
// that the dialect stays the one newer RE2 versions (and Go) accept.
std::string groupNameProblem(const std::vector<std::string>& names) {
  std::set<std::string_view> seen;
  for (const auto& n : names) {
    if (!validGroupName(n))
      return "invalid group name '" + n + "' (letters, digits and _, not starting with a digit)";
    if (!seen.insert(n).second) return "group name '" + n + "' used twice";
  }
  return "";
}

}  // namespace

std::string toRe2Syntax(std::string_view p, std::vector<std::string>* names) {
  std::string out;
  out.reserve(p.size() + 8);
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\' && i + 1 < p.size()) {
      out.append(p.substr(i, 2));
      ++i;
    } else if (p[i] == '[') {
      size_t n = classLength(p, i);
      out.append(p.substr(i, n));
      i += n - 1;
    } else if (size_t n = namedOpener(p, i)) {
      size_t close = p.find('>', i + n);
      if (names) names->emplace_back(p.substr(i + n, close == std::string_view::npos ? 0 : close - i - n));
      out += "(?P<";
      i += n - 1;
    } else {
      out += p[i];
    }
  }
  return out;
}

Regex compileRegex(std::string_view pattern, std::string* error) {
  std::vector<std::string> names;
  std::string rewritten = toRe2Syntax(pattern, &names);
  re2::RE2::Options options;
  options.set_log_errors(false);  // the error goes to the config report, not to stderr
  auto re = std::make_shared<const re2::RE2>(rewritten, options);
  std::string problem = re->ok() ? groupNameProblem(names) : re->error();
  if (!problem.empty()) {
    *error = "invalid regex " + config::quoteValue(pattern) + " (RE2 syntax): " +
             config::quoteValue(problem, /*quotes=*/false, /*max=*/200);
    return nullptr;
  }
  return re;
}

// Match() without submatches: PartialMatch's argument-parsing layer costs as much as a short match.
bool regexSearch(const re2::RE2& re, std::string_view text) {
  return re.Match(piece(text), 0, text.size(), re2::RE2::UNANCHORED, nullptr, 0);
}

std::optional<NamedRegex> compileNamedRegex(std::string_view pattern, std::string* error) {
  NamedRegex r;
  r.re = compileRegex(pattern, error);
  if (!r.re) return std::nullopt;
  for (const auto& [name, index] : r.re->NamedCapturingGroups()) r.groups.emplace_back(name, index);
  std::sort(r.groups.begin(), r.groups.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return r;
}

std::optional<std::vector<NamedCapture>> searchNamed(const NamedRegex& r, std::string_view text) {
  std::vector<re2::StringPiece> groups(static_cast<size_t>(r.re->NumberOfCapturingGroups()) + 1);
  if (!r.re->Match(piece(text), 0, text.size(), re2::RE2::UNANCHORED, groups.data(), static_cast<int>(groups.size())))
    return std::nullopt;
  std::vector<NamedCapture> out;
  for (const auto& [name, index] : r.groups) {
    const auto& g = groups[static_cast<size_t>(index)];
    if (g.data() != nullptr) out.push_back({name, std::string_view(g.data(), g.size())});
  }
  return out;
}

}  // namespace proflow::attributes
