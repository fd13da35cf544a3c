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

// Wire types a field accepts, one bit each (`accepts(kVarint) | accepts(kLen)` for a repeated
// scalar, packed or not).
constexpr uint8_t accepts(WireType t) { return static_cast<uint8_t>(1u << t); }

// The wire types each field number of a message accepts, indexed by field number (0 unused).
template <size_t N>
using FieldTypes = uint8_t[N];

class Reader {
 public:
  // `level`: how deep the message is nested, the request being 0; groups in unknown fields nest
  // further, up to `max_level` (protobuf's recursion limit counts both the same way).
  explicit Reader(std::string_view bytes, int level = 0, int max_level = formats::kProtobufRecursionLimit)
      : p_(reinterpret_cast<const uint8_t*>(bytes.data())), end_(p_ + bytes.size()), level_(level),
        max_level_(max_level) {}

  bool done() const { return p_ >= end_ || failed_; }
  bool failed() const { return failed_; }
  const uint8_t* position() const { return p_; }

  // Next field key; false at the end of the message or on error.
  [[gnu::always_inline]] bool next(uint32_t* field, uint32_t* wire_type) {
    if (done()) return false;
    const uint32_t k = key();
    if (failed_ || !validKey(k)) return fail();
    *field = k >> 3;
    *wire_type = k & 7;
    return true;
  }

  // Next field the message knows with a wire type it accepts (`types`); every other field is
  // skipped as an unknown field, as protobuf does (skippedUnknown() tells).
  template <size_t N>
  [[gnu::always_inline]] bool next(uint32_t* field, uint32_t* wire_type, const FieldTypes<N>& types) {
    while (!done()) {
      const uint32_t k = *p_ < 0x80 ? *p_++ : key();  // one byte for field numbers below 16
      if (failed_) return false;
      *field = k >> 3;
      *wire_type = k & 7;
      // No table accepts field 0 or wire types 3, 4, 6, 7: a key found there is a valid one.
      if (*field < N && (types[*field] >> *wire_type & 1) != 0) [[likely]]
        return true;
      if (!skipUnknown(k)) return false;
    }
    return false;
  }
  bool skippedUnknown() const { return skipped_unknown_; }

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

  // A length-delimited payload. Its length is read as protobuf reads one: at most 5 bytes, and
  // below 2 GiB.
  std::string_view bytes() {
    const uint64_t n = p_ < end_ && *p_ < 0x80 ? *p_++ : length();
    if (failed_ || n > static_cast<uint64_t>(end_ - p_)) return fail(), std::string_view();
    std::string_view out(reinterpret_cast<const char*>(p_), static_cast<size_t>(n));
    p_ += n;
    return out;
  }

  // Skips the value of field `field` of `wire_type` (a group up to its end key).
  void skip(uint32_t wire_type, uint32_t field) {
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
      case kStartGroup:
        skipGroup(field, level_ + 1);
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

  [[gnu::noinline]] uint64_t length() {
    const uint8_t* start = p_;
    const uint64_t n = varint();
    if (p_ - start > formats::kProtobufMaxKeyOrLengthBytes || n > formats::kProtobufMaxLength) fail();
    return n;
  }

  // A field key as protobuf reads one: at most 5 bytes, bits past 32 dropped.
  uint32_t key() {
    const uint8_t* start = p_;
    const auto k = static_cast<uint32_t>(varint());
    if (p_ - start > formats::kProtobufMaxKeyOrLengthBytes) fail();
    return k;
  }
  // Field number 0 and wire types 6 and 7 do not exist; an end-group key outside its group ends
  // the message early, which protobuf refuses at the top level and in every length-delimited one.
  static bool validKey(uint32_t k) { return k >> 3 != 0 && (k & 7) != kEndGroup && (k & 7) <= kFixed32; }

  // A field the message does not know (or not with this wire type): skipped, out of the hot loop.
  [[gnu::noinline]] bool skipUnknown(uint32_t k) {
    if (!validKey(k)) return fail();
    skipped_unknown_ = true;
    skip(k & 7, k >> 3);
    return !failed_;
  }

  // The fields of a group that started at nesting `level`, through its end key.
  [[gnu::noinline]] void skipGroup(uint32_t field, int level) {
    if (level > max_level_) return (void)fail();
    while (!done()) {
      const uint32_t k = key();
      if (failed_) return;
      const uint32_t f = k >> 3, t = k & 7;
      if (t == kEndGroup) {
        if (f != field) fail();
        return;
      }
      if (!validKey(k)) return (void)fail();
      if (t == kStartGroup) skipGroup(f, level + 1);
      else skip(t, f);
    }
    fail();  // the message ended inside the group
  }

  const uint8_t* p_;
  const uint8_t* end_;
  int level_;
  int max_level_;
  bool failed_ = false;
  bool skipped_unknown_ = false;
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
