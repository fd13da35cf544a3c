#include "core/util/percent_encoding.h"

#include "core/util/hex.h"

namespace proflow {
namespace {

bool unreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

}  // namespace

std::optional<std::string> percentDecode(std::string_view s, PlusSign plus) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '%') {
      if (s.size() - i < 3) return std::nullopt;
      const int hi = hexDigitValue(s[i + 1]), lo = hexDigitValue(s[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi << 4 | lo);
      i += 2;
    } else {
      out += plus == PlusSign::kSpace && c == '+' ? ' ' : c;
    }
  }
  return out;
}

std::string percentEncode(std::string_view s) {
  static constexpr char kUpper[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (unreserved(u)) {
      out += c;
    } else {
      out += '%';
      out += kUpper[u >> 4];
      out += kUpper[u & 15];
    }
  }
  return out;
}

}  // namespace proflow
