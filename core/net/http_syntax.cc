#include "core/net/http_syntax.h"

#include "core/util/ascii.h"

namespace proflow::net {

bool isMediaType(std::string_view content_type, std::string_view media_type) {
  return iequals(trim(content_type.substr(0, content_type.find(';'))), media_type);
}

std::string originForm(std::string_view target) {
  // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then "://".
  const size_t scheme_end = target.find("://");
  if (target.empty() || target.front() == '/' || scheme_end == 0 || scheme_end == std::string_view::npos)
    return std::string(target);
  for (size_t i = 0; i < scheme_end; ++i) {
    const char c = target[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!alpha && (i == 0 || !((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'))) return std::string(target);
  }
  const size_t rest = target.find_first_of("/?#", scheme_end + 3);
  if (rest == std::string_view::npos || target[rest] == '#') return "/";
  if (target[rest] == '?') return "/" + std::string(target.substr(rest));
  return std::string(target.substr(rest));
}

}  // namespace proflow::net
