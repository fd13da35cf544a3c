// Opened modules by key (one per binary): LRU bounded by an approximate memory budget, failed lookups
// remembered for a TTL, and concurrent lookups of the same key coalesced so a binary is located and
// opened (or downloaded) once however many threads ask for it at the same time.
#pragma once

#include <chrono>
#include <functional>
#include <future>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>

#include "processors/symbolize/symbol_locator.h"

namespace proflow::symbolize {

class ModuleCache {
 public:
  using Loader = std::function<LocateResult()>;

  ModuleCache(size_t budget_bytes, std::chrono::nanoseconds negative_ttl)
      : budget_bytes_(budget_bytes), negative_ttl_(negative_ttl) {}

  // The cached result for `key`, or the result of `load` (run once for all concurrent callers).
  // `*hit` tells whether the answer came from the cache (including waiting on another's load).
  LocateResult get(const std::string& key, const Loader& load, bool* hit);

  size_t size() const;

 private:
  struct Slot {
    std::shared_future<LocateResult> result;
    bool ready = false;
    std::chrono::steady_clock::time_point expires{};  // for failed lookups
    std::list<std::string>::iterator lru;             // for found modules
    bool in_lru = false;
  };
  void finishLocked(const std::string& key, const LocateResult& r);
  void evictLocked(const std::string& keep);

  const size_t budget_bytes_;
  const std::chrono::nanoseconds negative_ttl_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, Slot> slots_;
  std::list<std::string> lru_;  // most recently used first
};

}  // namespace proflow::symbolize
