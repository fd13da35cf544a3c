#include "core/ottl/patterns.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "core/util/utf8.h"

namespace proflow::ottl {
namespace {

bool nameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Go's regexp.Expand: $n / ${n} a group by number, $name / ${name} by name, $$ a dollar; a name
// that names no group expands to nothing.
std::string expand(const re2::RE2& re, std::string_view tmpl, const std::vector<re2::StringPiece>& groups) {
  std::string out;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != '$' || i + 1 >= tmpl.size()) {
      out += tmpl[i];
      continue;
    }
    if (tmpl[i + 1] == '$') {
      out += '$';
      ++i;
      continue;
    }
    std::string_view name;
    size_t end = 0;
    if (tmpl[i + 1] == '{') {
      const size_t close = tmpl.find('}', i + 2);
      if (close == std::string_view::npos) {
        out += '$';
        continue;
      }
      name = tmpl.substr(i + 2, close - i - 2);
      end = close;
    } else {
      size_t j = i + 1;
      while (j < tmpl.size() && nameChar(tmpl[j])) ++j;
      name = tmpl.substr(i + 1, j - i - 1);
      end = j - 1;
    }
    if (name.empty()) {
      out += '$';
      continue;
    }
    i = end;
    int group = -1;
    if (std::all_of(name.begin(), name.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      group = name.size() < 6 ? std::stoi(std::string(name)) : -1;
    } else {
      const auto& named = re.NamedCapturingGroups();
      if (auto it = named.find(std::string(name)); it != named.end()) group = it->second;
    }
    if (group >= 0 && static_cast<size_t>(group) < groups.size() && groups[group].data())
      out.append(groups[group].data(), groups[group].size());
  }
  return out;
}

}  // namespace

bool replaceAll(const re2::RE2& re, std::string_view text, std::string_view tmpl,
                const std::function<std::string(std::string)>& finish, std::string* out) {
  const int n = re.NumberOfCapturingGroups() + 1;
  std::vector<re2::StringPiece> groups(static_cast<size_t>(n));
  const re2::StringPiece input(text.data(), text.size());
  bool any = false;
  size_t pos = 0;
  out->clear();
  while (pos <= text.size()) {
    if (!re.Match(input, pos, text.size(), re2::RE2::UNANCHORED, groups.data(), n)) break;
    const size_t start = static_cast<size_t>(groups[0].data() - text.data());
    const size_t end = start + groups[0].size();
    out->append(text.substr(pos, start - pos));
    *out += finish(expand(re, tmpl, groups));
    any = true;
    if (end == start) {  // an empty match: step over one character (all its bytes) so the loop ends
      const size_t n = start < text.size() ? utf8CharLength(text, start) : 1;
      out->append(text.substr(start, n));
      pos = start + n;
    } else {
      pos = end;
    }
  }
  if (pos < text.size()) out->append(text.substr(pos));
  return any;
}

attributes::Regex compileGlob(std::string_view glob, std::string* error) {
  std::string re = "^(?s:";
  for (size_t i = 0; i < glob.size(); ++i) {
    const char c = glob[i];
    if (c == '*') {
      re += "[^/]*";
    } else if (c == '?') {
      re += "[^/]";
    } else if (c == '\\') {
      if (++i >= glob.size()) {
        *error = "glob ends with a lone '\\'";
        return nullptr;
      }
      re += re2::RE2::QuoteMeta(std::string(1, glob[i]));
    } else if (c == '[') {
      const size_t close = glob.find(']', i + 2);
      if (close == std::string_view::npos) {
        *error = "glob has '[' without ']'";
        return nullptr;
      }
      std::string cls(glob.substr(i + 1, close - i - 1));
      re += "[";
      for (size_t k = 0; k < cls.size(); ++k) {
        if (k == 0 && cls[k] == '^') re += '^';
        else if (cls[k] == '\\' && k + 1 < cls.size()) re += "\\" + std::string(1, cls[++k]);
        else if (cls[k] == '-' || std::isalnum(static_cast<unsigned char>(cls[k]))) re += cls[k];
        else re += "\\" + std::string(1, cls[k]);
      }
      re += "]";
      i = close;
    } else {
      re += re2::RE2::QuoteMeta(std::string(1, c));
    }
  }
  re += ")$";
  return attributes::compileRegex(re, error);
}

}  // namespace proflow::ottl
