#include "core/util/utf8.h"

#include <cstdint>
#include <cstring>

namespace proflow {
namespace {

// Length of the well-formed sequence starting at s[i], 0 when there is none.
size_t sequenceLength(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  auto cont = [&](size_t k) { return i + k < s.size() && (b(k) & 0xC0) == 0x80; };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if (c == 0xE0 && b(1) < 0xA0) return 0;   // overlong
    if (c == 0xED && b(1) >= 0xA0) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if (c == 0xF0 && b(1) < 0x90) return 0;   // overlong
    if (c == 0xF4 && b(1) >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

}  // namespace

bool isValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    if (s.size() - i >= 8) {  // ASCII runs, 8 bytes at a time: most strings are ASCII
      uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      if ((w & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    const size_t n = sequenceLength(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

size_t utf8CharLength(std::string_view s, size_t i) {
  const size_t n = sequenceLength(s, i);
  return n == 0 ? 1 : n;
}

std::string_view utf8Prefix(std::string_view s, size_t max_bytes) {
  size_t end = 0;
  while (end < s.size()) {
    const size_t n = utf8CharLength(s, end);
    if (end + n > max_bytes) break;
    end += n;
  }
  return s.substr(0, end);
}

std::string sanitizeUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const size_t n = sequenceLength(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

Status checkUtf8Parameters(const std::multimap<std::string, std::string>& query) {
  for (const auto& [name, value] : query) {
    // The name is shown repaired: the message itself must be valid text.
    if (!isValidUtf8(name))
      return Status::invalid("query parameter name '" + sanitizeUtf8(name) + "' is not valid UTF-8");
    if (!isValidUtf8(value)) return Status::invalid("query parameter '" + name + "' is not valid UTF-8");
  }
  return Status::ok();
}

}  // namespace proflow
