// Protobuf wire primitives for the flat decoder and encoder: a bounds-checked reader that records
// the first error instead of throwing, and size/put helpers for a writer that knows its exact size.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/formats/varint_bits.h"

namespace proflow::flat::wire {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLen = 2, kStartGroup = 3, kEndGroup = 4, kFixed32 = 5 };

class Reader {
 public:
  explicit Reader(std::string_view bytes)
      : p_(reinterpret_cast<const uint8_t*>(bytes.data())), end_(p_ + bytes.size()) {}

  bool done() const { return p_ >= end_ || failed_; }
  bool failed() const { return failed_; }
  const uint8_t* position() const { return p_; }

  // Next field key; false at the end of the message or on error.
  [[gnu::always_inline]] bool next(uint32_t* field, uint32_t* wire_type) {
    if (done()) return false;
    const uint64_t key = varint();
    if (failed_) return false;
    *field = static_cast<uint32_t>(key >> 3);
    *wire_type = static_cast<uint32_t>(key & 7);
    if (*field == 0) return fail();
    return true;
  }

  [[gnu::always_inline]] uint64_t varint() {
    uint64_t v;
    if (const size_t n = formats::decodeVarintPrefix(p_, end_, &v); n != 0) {
      p_ += n;
      return v;
    }
    return slowVarint();
  }

  uint64_t fixed64() {
    if (end_ - p_ < 8) return fail(), 0;
    uint64_t v = formats::loadLittleEndian64(p_);
    p_ += 8;
    return v;
  }

  // A length-delimited payload.
  std::string_view bytes() {
    const uint64_t n = varint();
    if (failed_ || n > static_cast<uint64_t>(end_ - p_)) return fail(), std::string_view();
    std::string_view out(reinterpret_cast<const char*>(p_), static_cast<size_t>(n));
    p_ += n;
    return out;
  }

  // Skips a field of `wire_type`; groups are refused (OTLP has none).
  void skip(uint32_t wire_type) {
    switch (wire_type) {
      case kVarint:
        varint();
        break;
      case kFixed64:
        if (end_ - p_ < 8) fail();
        else p_ += 8;
        break;
      case kLen:
        bytes();
        break;
      case kFixed32:
        if (end_ - p_ < 4) fail();
        else p_ += 4;
        break;
      default:
        fail();
    }
  }

  bool fail() {
    failed_ = true;
    return false;
  }

 private:
  [[gnu::noinline]] uint64_t slowVarint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (p_ >= end_) return fail(), 0;
      const uint8_t b = *p_++;
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return v;
    }
    return fail(), 0;  // more than 10 bytes
  }

  const uint8_t* p_;
  const uint8_t* end_;
  bool failed_ = false;
};

using formats::putVarint;
using formats::varintSize;
// int32 fields are sign-extended to 64 bits on the wire.
inline size_t int32Size(int32_t v) { return varintSize(static_cast<uint64_t>(static_cast<int64_t>(v))); }
inline size_t lenFieldSize(size_t payload) { return 1 + varintSize(payload) + payload; }  // field numbers < 16

inline uint8_t* putKey(uint8_t* p, uint32_t field, WireType t) {
  *p++ = static_cast<uint8_t>(field << 3 | t);  // field numbers < 16: one byte
  return p;
}
inline uint8_t* putFixed64(uint8_t* p, uint64_t v) {
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  std::memcpy(p, &v, 8);
  return p + 8;
}
inline uint8_t* putBytes(uint8_t* p, uint32_t field, std::string_view s) {
  p = putKey(p, field, kLen);
  p = putVarint(p, s.size());
  if (!s.empty()) std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

}  // namespace proflow::flat::wire
