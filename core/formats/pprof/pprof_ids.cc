#include "core/formats/pprof/pprof_ids.h"

#include <array>
#include <cstdint>
#include <cstring>

#include "core/util/hex.h"

namespace proflow::pprof {
namespace {

bool allOf(std::string_view s, bool (*pred)(char)) {
  for (char c : s)
    if (!pred(c)) return false;
  return !s.empty();
}

// Hex text (already checked to be hex) -> `width` big-endian bytes, left-padded with zeros.
std::optional<IdBytes> fromHex(std::string_view s, size_t width) {
  uint8_t bytes[16] = {};
  if (s.size() == 2 * width) {  // the usual full-width spelling: two digits a byte
    for (size_t i = 0; i < width; ++i)
      bytes[i] = static_cast<uint8_t>(hexDigitValue(s[2 * i]) << 4 | hexDigitValue(s[2 * i + 1]));
    return IdBytes(bytes, width);
  }
  while (s.size() > 1 && s.front() == '0') s.remove_prefix(1);
  if (s.size() > 2 * width) return std::nullopt;
  const size_t skip = 2 * width - s.size();  // leading zero nibbles
  for (size_t i = 0; i < s.size(); ++i) {
    const size_t nibble = skip + i;
    const auto v = static_cast<uint8_t>(hexDigitValue(s[i]));
    bytes[nibble / 2] |= static_cast<uint8_t>(v << (4 * (1 - nibble % 2)));
  }
  return IdBytes(bytes, width);
}

// Decimal text -> `width` (8 or 16) big-endian bytes; nullopt on overflow.
std::optional<IdBytes> fromDecimal(std::string_view s, size_t width) {
  uint8_t bytes[16] = {};
  if (s.size() <= 19) {  // fits uint64 without an overflow check
    uint64_t v = 0;
    for (char c : s) v = v * 10 + static_cast<unsigned>(c - '0');
    for (size_t i = 0; i < 8; ++i) bytes[width - 1 - i] = static_cast<uint8_t>(v >> (8 * i));
    return IdBytes(bytes, width);
  }
  using u128 = unsigned __int128;
  const u128 max = width == 8 ? UINT64_MAX : ~static_cast<u128>(0);
  const u128 max_div10 = max / 10;
  const auto max_mod10 = static_cast<unsigned>(max % 10);
  u128 v = 0;
  for (char c : s) {
    const auto d = static_cast<unsigned>(c - '0');
    if (v > max_div10 || (v == max_div10 && d > max_mod10)) return std::nullopt;
    v = v * 10 + d;
  }
  for (size_t i = 0; i < width; ++i) bytes[width - 1 - i] = static_cast<uint8_t>(v >> (8 * i));
  return IdBytes(bytes, width);
}

std::optional<IdBytes> parseId(std::string_view s, size_t width) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty()) return std::nullopt;
  // One pass tells decimal, hex and neither apart (this runs for every distinct id label).
  bool digits = true;
  for (char c : s) {
    const int v = hexDigitValue(c);
    if (v < 0) return std::nullopt;
    digits &= v < 10;
  }
  // Full-width hex is the OTel/W3C spelling; a run of digits of any other length is a decimal
  // number (Datadog); anything with a-f is hex.
  std::optional<IdBytes> id = digits && s.size() != 2 * width ? fromDecimal(s, width) : fromHex(s, width);
  if (!id || id->isZero()) return std::nullopt;
  return id;
}

std::optional<IdBytes> fromNumber(int64_t v, size_t width) {
  if (v == 0) return std::nullopt;
  uint8_t bytes[16] = {};
  auto u = static_cast<uint64_t>(v);
  for (size_t i = 0; i < 8; ++i) bytes[width - 1 - i] = static_cast<uint8_t>(u >> (8 * i));
  return IdBytes(bytes, width);
}

}  // namespace

BuildIdKind classifyBuildId(std::string_view b) {
  if (b.empty()) return BuildIdKind::kNone;
  if (b.find('/') != std::string_view::npos) return BuildIdKind::kGo;
  if (b.size() % 2 == 0 && allOf(b, isHexDigit)) return BuildIdKind::kGnu;
  return BuildIdKind::kOther;
}

std::string_view buildIdAttribute(BuildIdKind kind) {
  switch (kind) {
    case BuildIdKind::kGnu:
      return attr::kBuildIdGnu;
    case BuildIdKind::kGo:
      return attr::kBuildIdGo;
    case BuildIdKind::kOther:
      return attr::kBuildIdOther;
    case BuildIdKind::kNone:
      break;
  }
  return {};
}

IdBytes::IdBytes(const uint8_t* bytes, size_t size) : size_(static_cast<uint8_t>(size)) {
  std::memcpy(bytes_, bytes, size);
}

bool IdBytes::isZero() const {
  for (size_t i = 0; i < size_; ++i)
    if (bytes_[i] != 0) return false;
  return true;
}

std::optional<IdBytes> parseSpanId(std::string_view text) { return parseId(text, 8); }
std::optional<IdBytes> parseTraceId(std::string_view text) { return parseId(text, 16); }
std::optional<IdBytes> spanIdFromNumber(int64_t v) { return fromNumber(v, 8); }
std::optional<IdBytes> traceIdFromNumber(int64_t v) { return fromNumber(v, 16); }

int spanKeyPriority(std::string_view k) {
  if (k == "span_id") return 0;
  if (k == "span id") return 1;
  return 2;
}

LinkRole linkRoleOf(std::string_view k) {
  if (k == "span_id" || k == "span id" || k == "profile_id") return LinkRole::kSpan;
  if (k == "local root span id") return LinkRole::kRootSpan;
  if (k == "trace_id" || k == "trace id") return LinkRole::kTrace;
  return LinkRole::kNone;
}

}  // namespace proflow::pprof
