// Per-pid memo of what the pid-dependent detectors found, bounded in size (least recently used goes
// first) and in age (pids are reused, so an entry older than the TTL is detected anew).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "processors/resource_detection/detected.h"

namespace proflow::processors::resourcedetection {

class PidCache {
 public:
  using Clock = std::chrono::steady_clock;
  // One list per configured detector (empty for the pid-independent ones).
  using Value = std::shared_ptr<const std::vector<DetectedList>>;
  using Fill = std::function<std::vector<DetectedList>(int64_t pid)>;

  PidCache(size_t capacity, Clock::duration ttl) : capacity_(capacity), ttl_(ttl) {}

  // The cached value of `pid`, or fill(pid) stored and returned (`*filled` set to true then, when
  // given). `fill` runs without the lock held, so two threads may detect one pid at once; the later
  // result is kept, both are correct.
  Value get(int64_t pid, Clock::time_point now, const Fill& fill, bool* filled = nullptr);

  size_t size() const;
  uint64_t hits() const;
  uint64_t misses() const;

 private:
  struct Entry {
    Value value;
    Clock::time_point detected_at;
    std::list<int64_t>::iterator lru;
  };

  size_t capacity_;
  Clock::duration ttl_;
  mutable std::mutex mu_;
  std::unordered_map<int64_t, Entry> entries_;
  std::list<int64_t> lru_;  // most recently used first
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
};

}  // namespace proflow::processors::resourcedetection
