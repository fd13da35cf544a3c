// Hashes that are the same on every machine, build and run: decisions that several processes must
// agree on (sampling replicas, agents routing to gateways) use these, never std::hash.
#pragma once

#include <cstdint>
#include <string_view>

namespace proflow {

// splitmix64 finaliser.
inline uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// 64-bit hash of `data` with `seed`: FNV-1a, then the splitmix finaliser to spread the bits.
inline uint64_t stableHash(std::string_view data, uint64_t seed = 0) {
  uint64_t h = 0xcbf29ce484222325ULL ^ mix64(seed);
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return mix64(h);
}

}  // namespace proflow
