#include "processors/symbolize/module_cache.h"

namespace proflow::symbolize {

using Clock = std::chrono::steady_clock;

LocateResult ModuleCache::get(const std::string& key, const Loader& load, bool* hit) {
  std::unique_lock<std::mutex> lock(mu_);
  auto it = slots_.find(key);
  if (it != slots_.end()) {
    Slot& s = it->second;
    const bool expired = s.ready && !s.in_lru && Clock::now() >= s.expires;
    if (!expired) {
      if (s.in_lru) lru_.splice(lru_.begin(), lru_, s.lru);
      auto result = s.result;
      lock.unlock();
      *hit = true;
      return result.get();  // waits when another thread is still loading this key
    }
    slots_.erase(it);
  }
  *hit = false;
  std::promise<LocateResult> promise;
  Slot& slot = slots_[key];
  slot.result = promise.get_future().share();
  lock.unlock();

  LocateResult r;
  try {
    r = load();
  } catch (const std::exception& e) {
    r.status = LookupStatus::kError;
    r.error = e.what();
  }
  promise.set_value(r);
  lock.lock();
  finishLocked(key, r);
  return r;
}

void ModuleCache::finishLocked(const std::string& key, const LocateResult& r) {
  auto it = slots_.find(key);
  if (it == slots_.end()) return;
  Slot& s = it->second;
  s.ready = true;
  if (r.status != LookupStatus::kFound) {
    s.expires = Clock::now() + negative_ttl_;
    return;
  }
  lru_.push_front(key);
  s.lru = lru_.begin();
  s.in_lru = true;
  evictLocked(key);
}

// Drops least recently used modules until the estimate fits the budget; never the one just added,
// which may alone exceed the budget and is still needed by its caller.
void ModuleCache::evictLocked(const std::string& keep) {
  size_t total = 0;
  for (const auto& k : lru_) {
    const auto& m = slots_[k].result.get().module;
    if (m) total += m->memoryEstimate();
  }
  while (total > budget_bytes_ && !lru_.empty() && lru_.back() != keep) {
    auto it = slots_.find(lru_.back());
    const auto& m = it->second.result.get().module;
    if (m) total -= std::min(total, m->memoryEstimate());
    lru_.pop_back();
    slots_.erase(it);
  }
}

size_t ModuleCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return lru_.size();
}

}  // namespace proflow::symbolize
