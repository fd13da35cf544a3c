// Bit tricks shared by the wire readers (protobuf's LEB128 in pprof, Hotspot's Varint128 in JFR):
// decode a varint of up to 8 bytes from one little-endian 8-byte load, with one bit scan instead of a
// data-dependent branch per byte. Location ids, string indexes and event fields have lengths that
// change from one value to the next, so the byte loop mispredicts on most of them.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace proflow::formats {

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

}  // namespace proflow::formats
