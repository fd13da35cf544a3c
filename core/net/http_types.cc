#include "core/net/http_types.h"

#include <algorithm>
#include <cctype>

#include "core/util/ascii.h"
#include "core/util/percent_encoding.h"

namespace proflow::net {

bool CaseInsensitiveLess::operator()(std::string_view a, std::string_view b) const {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return static_cast<unsigned char>(asciiLower(x)) < static_cast<unsigned char>(asciiLower(y));
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
// A query component decoded; one with a malformed escape ("100%") is kept as it was written.
std::string queryComponent(std::string_view s) {
  std::optional<std::string> decoded = percentDecode(s, PlusSign::kSpace);
  return decoded ? std::move(*decoded) : std::string(s);
}
}  // namespace

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
    out.emplace(queryComponent(key), queryComponent(value));
  }
  return out;
}

}  // namespace proflow::net
