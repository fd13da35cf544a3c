#include "core/formats/jfr/byte_reader.h"

#include "core/util/utf8.h"

namespace proflow::jfr {

void appendUtf8(std::string& out, uint32_t cp) {
  if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) cp = 0xFFFD;
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

namespace {

bool readCharArray(ByteReader& r, std::string& scratch, std::string_view* out) {
  uint64_t n = r.varint();
  if (!r.ok() || n > r.remaining()) return r.fail(), false;
  scratch.clear();
  uint32_t high = 0;  // pending high surrogate
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t u = static_cast<uint16_t>(r.varint());
    if (!r.ok()) return false;
    if (high != 0) {
      if (u >= 0xDC00 && u <= 0xDFFF) {
        appendUtf8(scratch, 0x10000 + ((high - 0xD800) << 10) + (u - 0xDC00));
        high = 0;
        continue;
      }
      appendUtf8(scratch, 0xFFFD);
      high = 0;
    }
    if (u >= 0xD800 && u <= 0xDBFF) {
      high = u;
    } else {
      appendUtf8(scratch, u);
    }
  }
  if (high != 0) appendUtf8(scratch, 0xFFFD);
  *out = scratch;
  return true;
}

bool readLatin1(ByteReader& r, std::string& scratch, std::string_view* out) {
  uint64_t n = r.varint();
  const uint8_t* p = r.pos();
  if (!r.ok() || !r.skip(n)) return false;
  bool ascii = true;
  for (uint64_t i = 0; i < n && ascii; ++i) ascii = p[i] < 0x80;
  if (ascii) {
    *out = std::string_view(reinterpret_cast<const char*>(p), n);
    return true;
  }
  scratch.clear();
  for (uint64_t i = 0; i < n; ++i) appendUtf8(scratch, p[i]);
  *out = scratch;
  return true;
}

}  // namespace

bool readString(ByteReader& r, std::string& scratch, std::string_view* out, uint64_t* pool_key, bool* is_pool_ref) {
  *is_pool_ref = false;
  *out = {};
  switch (static_cast<StringEncoding>(r.u8())) {
    case StringEncoding::kNull:
    case StringEncoding::kEmpty:
      return r.ok();
    case StringEncoding::kConstantPool:
      *pool_key = r.varint();
      *is_pool_ref = true;
      return r.ok();
    case StringEncoding::kUtf8: {
      uint64_t n = r.varint();
      const uint8_t* p = r.pos();
      if (!r.ok() || !r.skip(n)) return false;
      *out = std::string_view(reinterpret_cast<const char*>(p), n);
      // OTLP strings are UTF-8 (protobuf refuses a request holding anything else, so one bad string
      // from a recording would cost the whole export): invalid bytes become U+FFFD.
      if (!isValidUtf8(*out)) {
        scratch = sanitizeUtf8(*out);
        *out = scratch;
      }
      return true;
    }
    case StringEncoding::kCharArray:
      return readCharArray(r, scratch, out);
    case StringEncoding::kLatin1:
      return readLatin1(r, scratch, out);
  }
  r.fail();
  return false;
}

}  // namespace proflow::jfr
