// Maps pprof ids (uint64, nonzero, usually dense from 1) to table indexes: a flat vector while ids
// stay below twice the table size, a hash map beyond that. Internal to the pprof library.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace proflow::pprof::internal {

class IdMap {
 public:
  explicit IdMap(size_t n) : flat_(2 * n + 1, -1) {}

  void set(uint64_t id, int32_t index) {
    if (id < flat_.size())
      flat_[id] = index;
    else
      sparse_[id] = index;
  }
  // -1 when absent.
  int32_t get(uint64_t id) const {
    if (id < flat_.size()) return flat_[id];
    auto it = sparse_.find(id);
    return it == sparse_.end() ? -1 : it->second;
  }

 private:
  std::vector<int32_t> flat_;
  std::unordered_map<uint64_t, int32_t> sparse_;
};

}  // namespace proflow::pprof::internal
