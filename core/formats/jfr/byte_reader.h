// Bounds-checked cursor over JFR bytes: compressed integers, big-endian fixed-width numbers and the six
// string encodings. Reading past the end never faults: the reader latches a failure, remembers where it
// happened and returns zeros from then on, so decoding loops terminate and callers check ok() once.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/formats/varint_bits.h"

namespace proflow::jfr {

// String encodings (first byte of every JFR string).
enum class StringEncoding : uint8_t {
  kNull = 0,
  kEmpty = 1,
  kConstantPool = 2,
  kUtf8 = 3,
  kCharArray = 4,  // one varint per UTF-16 code unit
  kLatin1 = 5,
};

// Decodes one varint at `p` and advances it. The caller guarantees 9 readable bytes at `p` (the longest
// varint), so the decoder needs no bounds checks: it reads 8 bytes at once and finds the terminating byte
// with one bit scan instead of a data-dependent branch per byte (lengths 1, 2 and 8 alternate in events).
inline uint64_t decodeVarintUnchecked(const uint8_t*& p) {
  if (*p < 0x80) return *p++;
  const uint64_t word = formats::loadLittleEndian64(p);
  uint64_t v;
  if (size_t n = formats::decodeVarintInWord(word, &v); n != 0) {
    p += n;
    return v;
  }
  // All 8 bytes continue: a 9th byte contributes all 8 bits.
  v = formats::squeezeVarintBytes(word) | static_cast<uint64_t>(p[8]) << 56;
  p += 9;
  return v;
}

class ByteReader {
 public:
  ByteReader() = default;
  // `base` is the origin of offset(): the chunk start, so offsets are chunk-relative.
  // A window that starts past its end (a size field smaller than the header it covers) is empty and
  // failed: remaining() would otherwise wrap and unlock the unchecked fast paths.
  ByteReader(const uint8_t* base, const uint8_t* begin, const uint8_t* end) : base_(base), p_(begin), end_(end) {
    if (begin > end) {
      end_ = begin;
      fail();
    }
  }

  bool ok() const { return !failed_; }
  bool atEnd() const { return p_ >= end_; }
  uint64_t offset() const { return static_cast<uint64_t>(p_ - base_); }
  uint64_t failOffset() const { return fail_offset_; }
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }
  const uint8_t* pos() const { return p_; }
  const uint8_t* base() const { return base_; }

  // Marks the reader failed at the current position and stops further reads. A read that needs bytes
  // past the end of the window names the window's last byte: error offsets stay inside the input even
  // when the window ends where the file does.
  void fail() {
    if (!failed_) fail_offset_ = p_ >= end_ && end_ > base_ ? static_cast<uint64_t>(end_ - 1 - base_) : offset();
    failed_ = true;
    p_ = end_;
  }

  // Moves to a chunk-relative offset inside [base, end).
  void seek(uint64_t off) {
    if (off > static_cast<uint64_t>(end_ - base_)) return fail();
    p_ = base_ + off;
  }

  bool skip(uint64_t n) {
    if (n > remaining()) {
      fail();
      return false;
    }
    p_ += n;
    return true;
  }

  uint8_t u8() {
    if (p_ >= end_) return fail(), 0;
    return *p_++;
  }

  uint64_t beU(int bytes) {
    if (remaining() < static_cast<size_t>(bytes)) return fail(), 0;
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v = (v << 8) | p_[i];
    p_ += bytes;
    return v;
  }

  // Hotspot's Varint128: LEB128 with at most 9 bytes; the 9th byte contributes all 8 bits.
  uint64_t varint() {
    if (p_ < end_ && *p_ < 0x80) return *p_++;  // most fields are small
    if (remaining() >= 9) return varintFast();
    return varintSlow();
  }

  // Reads a string's encoding byte and payload without decoding it; returns false on malformed input.
  bool skipString() {
    uint8_t enc = u8();
    switch (enc) {
      case 0:
      case 1:
        return ok();
      case 2:
        varint();
        return ok();
      case 3:
      case 5:
        return skip(varint());
      case 4: {
        uint64_t n = varint();
        if (n > remaining()) return fail(), false;  // each code unit takes at least one byte
        for (uint64_t i = 0; i < n && ok(); ++i) varint();
        return ok();
      }
      default:
        fail();
        return false;
    }
  }

 private:
  uint64_t varintFast() { return decodeVarintUnchecked(p_); }

  uint64_t varintSlow() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) {
      if (p_ >= end_) return fail(), 0;
      uint64_t b = *p_++;
      v |= (b & 0x7f) << (7 * i);
      if (!(b & 0x80)) return v;
    }
    if (p_ >= end_) return fail(), 0;
    return v | (static_cast<uint64_t>(*p_++) << 56);
  }

  const uint8_t* base_ = nullptr;
  const uint8_t* p_ = nullptr;
  const uint8_t* end_ = nullptr;
  bool failed_ = false;
  uint64_t fail_offset_ = 0;
};

// Appends the UTF-8 form of one Unicode code point (unpaired surrogates become U+FFFD).
void appendUtf8(std::string& out, uint32_t cp);

// Decodes an inline string payload (encodings 3, 4, 5) at the reader's position into UTF-8. For UTF-8
// and pure-ASCII Latin-1 the result is a view into the input; otherwise it is built in `scratch`.
// Encodings 0/1 give "", and 2 gives the key in `*pool_key` (the caller resolves it). Returns false on
// malformed input.
bool readString(ByteReader& r, std::string& scratch, std::string_view* out, uint64_t* pool_key, bool* is_pool_ref);

}  // namespace proflow::jfr
