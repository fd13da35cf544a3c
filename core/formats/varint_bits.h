// Varint primitives shared by the wire readers and writers (protobuf's LEB128 in pprof and OTLP,
// Hotspot's Varint128 in JFR). Reading: a varint of up to 8 bytes from one little-endian 8-byte load,
// with one bit scan instead of a data-dependent branch per byte. Location ids, string indexes and
// event fields have lengths that change from one value to the next, so the byte loop mispredicts on
// most of them.
#pragma once

#include <bit>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace proflow::formats {

// What protobuf's own parser accepts, for the readers that must accept the same bytes (the pprof
// wire view, the OTLP flat decoder): a field key or a length is at most 5 bytes (a key keeps its
// low 32 bits), a length stays below 2 GiB less its parser's slop bytes, and messages and groups
// nest at most 100 deep (the request or profile being 0).
inline constexpr ptrdiff_t kProtobufMaxKeyOrLengthBytes = 5;
inline constexpr uint64_t kProtobufMaxLength = INT32_MAX - 16;
inline constexpr int kProtobufRecursionLimit = 100;

// The value of a varint's first 8 bytes, loaded little-endian into `x` with the bytes after the varint
// already zeroed: drops the continuation bits and squeezes the 7-bit groups together (pairs, then quads,
// then the two halves).
inline uint64_t squeezeVarintBytes(uint64_t x) {
  x &= 0x7f7f7f7f7f7f7f7full;
  x = (x & 0x007f007f007f007full) | ((x & 0x7f007f007f007f00ull) >> 1);
  x = (x & 0x00003fff00003fffull) | ((x & 0x3fff00003fff0000ull) >> 2);
  return (x & 0x000000000fffffffull) | ((x & 0x0fffffff00000000ull) >> 4);
}

// The 8 bytes at `p` as a little-endian word (the caller guarantees they are readable).
inline uint64_t loadLittleEndian64(const uint8_t* p) {
  uint64_t x;
  std::memcpy(&x, p, 8);
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap64(x);
  return x;
}

// Decodes a varint that ends within the 8 bytes of `word` (loadLittleEndian64 of its start): its length
// (1..8), or 0 when all 8 bytes carry the continuation bit (a longer varint: the caller's slow path).
inline size_t decodeVarintInWord(uint64_t word, uint64_t* value) {
  const uint64_t stops = ~word & 0x8080808080808080ull;  // high bit clear = last byte of the varint
  if (stops == 0) return 0;
  const int stop_bit = std::countr_zero(stops);  // 8 * (length - 1) + 7
  *value = squeezeVarintBytes(word & (~0ull >> (63 - stop_bit)));
  return static_cast<size_t>(stop_bit >> 3) + 1;
}

// Decodes the varint at `p`, within the bytes before `end`, on its common paths: one byte (most keys,
// indexes and lengths); up to 8 bytes from one load when 8 are left; two bytes when fewer are left
// (the last fields of a small message). Returns its length, or 0 for the caller's checked byte loop
// (a longer varint, a truncated one, or no bytes left).
[[gnu::always_inline]] inline size_t decodeVarintPrefix(const uint8_t* p, const uint8_t* end, uint64_t* value) {
  if (p < end && *p < 0x80) {
    *value = *p;
    return 1;
  }
  if (end - p >= 8) return decodeVarintInWord(loadLittleEndian64(p), value);
  if (end - p >= 2 && p[1] < 0x80) {
    *value = (p[0] & 0x7fu) | uint64_t{p[1]} << 7;
    return 2;
  }
  return 0;
}

// Bytes of `v` as a varint: 7 payload bits a byte, without a branch.
inline size_t varintSize(uint64_t v) { return (static_cast<size_t>(std::bit_width(v | 1)) * 9 + 64) / 64; }

// Writes `v` as a varint at `p` (char or uint8_t); returns the end.
template <class Byte>
inline Byte* putVarint(Byte* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<Byte>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<Byte>(v);
  return p;
}

}  // namespace proflow::formats
