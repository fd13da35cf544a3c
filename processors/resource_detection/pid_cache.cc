#include "processors/resource_detection/pid_cache.h"

namespace proflow::processors::resourcedetection {

PidCache::Value PidCache::get(int64_t pid, Clock::time_point now, const Fill& fill, bool* filled) {
  {
    std::lock_guard lock(mu_);
    auto it = entries_.find(pid);
    if (it != entries_.end() && now - it->second.detected_at < ttl_) {
      lru_.splice(lru_.begin(), lru_, it->second.lru);
      ++hits_;
      return it->second.value;
    }
    ++misses_;
  }
  Value value = std::make_shared<const std::vector<DetectedList>>(fill(pid));
  if (filled) *filled = true;
  std::lock_guard lock(mu_);
  auto it = entries_.find(pid);
  if (it != entries_.end()) {
    it->second.value = value;
    it->second.detected_at = now;
    lru_.splice(lru_.begin(), lru_, it->second.lru);
    return value;
  }
  while (!lru_.empty() && entries_.size() >= capacity_) {
    entries_.erase(lru_.back());
    lru_.pop_back();
  }
  lru_.push_front(pid);
  entries_.emplace(pid, Entry{value, now, lru_.begin()});
  return value;
}

size_t PidCache::size() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

uint64_t PidCache::hits() const {
  std::lock_guard lock(mu_);
  return hits_;
}

uint64_t PidCache::misses() const {
  std::lock_guard lock(mu_);
  return misses_;
}

}  // namespace proflow::processors::resourcedetection
