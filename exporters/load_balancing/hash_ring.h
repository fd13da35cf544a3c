// Consistent hashing of routing keys onto backends. Each backend owns many points on a 64-bit ring
// (stable hashes of "endpoint#i"), and a key goes to the owner of the first point at or after the
// key's hash. Every agent that sees the same backends routes a key the same way, whatever order it
// learnt them in, and adding or removing one backend moves only about 1/N of the keys.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace proflow::exporters::loadbalancing {

class HashRing {
 public:
  static constexpr int kPointsPerBackend = 200;

  // `endpoints` may come in any order and with duplicates; must not be empty.
  explicit HashRing(std::vector<std::string> endpoints);

  const std::string& backendFor(std::string_view key) const;
  // Sorted, without duplicates.
  const std::vector<std::string>& backends() const { return backends_; }

 private:
  struct Point {
    uint64_t hash;
    uint32_t backend;
  };
  std::vector<std::string> backends_;
  std::vector<Point> points_;  // sorted by hash
};

}  // namespace proflow::exporters::loadbalancing
