#include "core/net/http_types.h"

#include <algorithm>
#include <cctype>

namespace proflow::net {

bool CaseInsensitiveLess::operator()(std::string_view a, std::string_view b) const {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) < std::tolower(static_cast<unsigned char>(y));
  });
}

std::string_view headerValue(const HttpHeaders& h, std::string_view name) {
  auto it = h.find(name);
  return it == h.end() ? std::string_view() : std::string_view(it->second);
}

std::string_view HttpRequest::queryValue(std::string_view name) const {
  auto it = query.find(std::string(name));
  return it == query.end() ? std::string_view() : std::string_view(it->second);
}

namespace {
int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::string percentDecode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%' && i + 2 < s.size()) {
      int hi = hexDigit(s[i + 1]), lo = hexDigit(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(plus_is_space && c == '+' ? ' ' : c);
  }
  return out;
}

std::multimap<std::string, std::string> parseQuery(std::string_view q) {
  std::multimap<std::string, std::string> out;
  while (!q.empty()) {
    size_t amp = q.find('&');
    std::string_view part = q.substr(0, amp);
    q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
    if (part.empty()) continue;
    size_t eq = part.find('=');
    std::string_view key = part.substr(0, eq);
    std::string_view value = eq == std::string_view::npos ? std::string_view() : part.substr(eq + 1);
    out.emplace(percentDecode(key, true), percentDecode(value, true));
  }
  return out;
}

}  // namespace proflow::net
