#include "core/util/hex.h"

namespace proflow {

void appendHex(std::string& out, std::string_view bytes) {
  const size_t at = out.size();
  out.resize(at + 2 * bytes.size());
  char* p = out.data() + at;
  for (unsigned char c : bytes) {
    *p++ = hexDigitChar(c >> 4);
    *p++ = hexDigitChar(c);
  }
}

std::string hexEncode(std::string_view bytes) {
  std::string out;
  appendHex(out, bytes);
  return out;
}

std::string hexEncode(std::span<const uint8_t> bytes) {
  return hexEncode(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

std::optional<std::string> hexDecode(std::string_view text) {
  if (text.size() % 2 != 0) return std::nullopt;
  std::string out(text.size() / 2, '\0');
  for (size_t i = 0; i < out.size(); ++i) {
    const int hi = hexDigitValue(text[2 * i]), lo = hexDigitValue(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out[i] = static_cast<char>(hi << 4 | lo);
  }
  return out;
}

std::optional<std::string> hexLowercase(std::string_view text) {
  std::string out(text.size(), '\0');
  for (size_t i = 0; i < text.size(); ++i) {
    const int v = hexDigitValue(text[i]);
    if (v < 0) return std::nullopt;
    out[i] = hexDigitChar(static_cast<unsigned>(v));
  }
  return out;
}

}  // namespace proflow
