#include "core/util/json/json_writer.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/util/hex.h"

namespace proflow::json {
namespace {

// Length of the well-formed UTF-8 sequence at s[i] and its code point; 0 when it is not one.
size_t decodeUtf8(std::string_view s, size_t i, uint32_t* cp) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  size_t n;
  uint32_t min;
  if ((c & 0xe0) == 0xc0) {
    n = 2, min = 0x80, *cp = c & 0x1f;
  } else if ((c & 0xf0) == 0xe0) {
    n = 3, min = 0x800, *cp = c & 0x0f;
  } else if ((c & 0xf8) == 0xf0) {
    n = 4, min = 0x10000, *cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xc0) != 0x80) return 0;
    *cp = (*cp << 6) | (b & 0x3f);
  }
  if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff)) return 0;
  return n;
}

// The code points protobuf's printer writes as \u escapes: controls, the HTML-sensitive '<' and '>',
// and the invisible format characters (soft hyphen, bidi controls, zero-width characters, line and
// paragraph separators, the BOM, interlinear annotations, musical formatting, language tags).
bool escapedCodePoint(uint32_t cp) {
  if (cp < 0x20 || cp == '<' || cp == '>' || (cp >= 0x7f && cp <= 0x9f)) return true;
  if (cp < 0xad) return false;
  return cp == 0xad || (cp >= 0x600 && cp <= 0x603) || cp == 0x6dd || cp == 0x70f || cp == 0x17b4 ||
         cp == 0x17b5 || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
         (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x206a && cp <= 0x206f) || cp == 0xfeff ||
         (cp >= 0xfff9 && cp <= 0xfffb) || (cp >= 0x1d173 && cp <= 0x1d17a) || cp == 0xe0001 ||
         (cp >= 0xe0020 && cp <= 0xe007f);
}

void appendUnit(std::string& out, uint32_t unit) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += hexDigitChar(unit >> shift);
}

}  // namespace

void appendString(std::string& out, std::string_view s) {
  out += '"';
  size_t run = 0;  // start of the bytes copied as they are
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<' && c != '>') {
      ++i;
      continue;
    }
    uint32_t cp = 0;
    const size_t n = decodeUtf8(s, i, &cp);
    if (n > 0 && c != '"' && c != '\\' && !escapedCodePoint(cp)) {
      i += n;
      continue;
    }
    out.append(s.substr(run, i - run));
    if (n == 0) {
      out += "\xef\xbf\xbd";  // not UTF-8: U+FFFD
      i += 1;
    } else {
      switch (cp) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
          if (cp >= 0x10000) {
            appendUnit(out, 0xd800 + ((cp - 0x10000) >> 10));
            appendUnit(out, 0xdc00 + ((cp - 0x10000) & 0x3ff));
          } else {
            appendUnit(out, cp);
          }
      }
      i += n;
    }
    run = i;
  }
  out.append(s.substr(run));
  out += '"';
}

void appendDouble(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "\"NaN\"";
    return;
  }
  if (std::isinf(v)) {
    out += v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  if (std::strtod(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.17g", v);
  out += buf;
}

Writer& Writer::base64(std::string_view bytes) {
  static constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  separate();
  out_ += '"';
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t v = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
    out_ += {kB64[v >> 18], kB64[(v >> 12) & 63], kB64[(v >> 6) & 63], kB64[v & 63]};
  }
  if (const size_t rest = bytes.size() - i; rest > 0) {
    const uint32_t v = uint8_t(bytes[i]) << 16 | (rest == 2 ? uint8_t(bytes[i + 1]) << 8 : 0);
    out_ += {kB64[v >> 18], kB64[(v >> 12) & 63], rest == 2 ? kB64[(v >> 6) & 63] : '=', '='};
  }
  out_ += '"';
  return *this;
}

Writer& Writer::hex(std::string_view bytes) {
  separate();
  out_ += '"';
  appendHex(out_, bytes);
  out_ += '"';
  return *this;
}

}  // namespace proflow::json
