#include "exporters/load_balancing/hash_ring.h"

#include <algorithm>

#include "core/util/stable_hash.h"

namespace proflow::exporters::loadbalancing {

HashRing::HashRing(std::vector<std::string> endpoints) : backends_(std::move(endpoints)) {
  std::sort(backends_.begin(), backends_.end());
  backends_.erase(std::unique(backends_.begin(), backends_.end()), backends_.end());
  points_.reserve(backends_.size() * kPointsPerBackend);
  for (uint32_t b = 0; b < backends_.size(); ++b)
    for (int i = 0; i < kPointsPerBackend; ++i)
      points_.push_back(Point{stableHash(backends_[b] + "#" + std::to_string(i)), b});
  // Ties (practically never) broken by backend so the order is total and the same everywhere.
  std::sort(points_.begin(), points_.end(),
            [](const Point& a, const Point& b) { return a.hash != b.hash ? a.hash < b.hash : a.backend < b.backend; });
}

const std::string& HashRing::backendFor(std::string_view key) const {
  const uint64_t h = stableHash(key);
  auto it = std::lower_bound(points_.begin(), points_.end(), h, [](const Point& p, uint64_t v) { return p.hash < v; });
  if (it == points_.end()) it = points_.begin();  // wrap around
  return backends_[it->backend];
}

}  // namespace proflow::exporters::loadbalancing
