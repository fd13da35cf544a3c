// Hex text: the one encoder and decoder of production code (ids, build ids, digests, escapes).
// Encoding writes lowercase digits, the spelling OTLP/JSON, W3C trace context and GNU build ids use;
// decoding takes either case.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace proflow {

namespace hex_internal {
inline constexpr std::array<int8_t, 256> kDigitValue = [] {
  std::array<int8_t, 256> t{};
  for (auto& v : t) v = -1;
  for (int c = '0'; c <= '9'; ++c) t[c] = static_cast<int8_t>(c - '0');
  for (int c = 'a'; c <= 'f'; ++c) t[c] = t[c - 'a' + 'A'] = static_cast<int8_t>(c - 'a' + 10);
  return t;
}();
}  // namespace hex_internal

// The lowercase digit for `nibble` (0..15).
constexpr char hexDigitChar(unsigned nibble) { return "0123456789abcdef"[nibble & 15]; }

// 0..15 for a hex digit of either case, -1 for any other character (one table look-up: parsers call
// it per character).
constexpr int hexDigitValue(char c) { return hex_internal::kDigitValue[static_cast<unsigned char>(c)]; }
constexpr bool isHexDigit(char c) { return hexDigitValue(c) >= 0; }

// Appends two lowercase digits per byte of `bytes` to `out`.
void appendHex(std::string& out, std::string_view bytes);

// Two lowercase digits per byte.
std::string hexEncode(std::string_view bytes);
std::string hexEncode(std::span<const uint8_t> bytes);

// The bytes `text` spells (two digits a byte, either case); nullopt when its length is odd or a
// character is not a hex digit.
std::optional<std::string> hexDecode(std::string_view text);

// `text` in lowercase when it is all hex digits (any length), nullopt otherwise: hex ids compared
// as text (build ids) are compared in this one spelling.
std::optional<std::string> hexLowercase(std::string_view text);

}  // namespace proflow
