#include "processors/sample/sampler.h"

#include <algorithm>
#include <cmath>

namespace proflow::processors::sample {

double unitInterval(uint64_t h) { return static_cast<double>(h >> 11) * 0x1.0p-53; }

bool keepByHash(std::string_view key, uint32_t seed, double percentage) {
  if (percentage >= 100) return true;
  if (percentage <= 0) return false;
  return unitInterval(stableHash(key, seed)) * 100.0 < percentage;
}

int64_t scaleUnbiased(int64_t value, double p, double u) {
  double scaled = static_cast<double>(value) / p;
  double base = std::floor(scaled);
  return static_cast<int64_t>(base) + (u < scaled - base ? 1 : 0);
}

TokenBuckets::Bucket& TokenBuckets::refill(const std::string& key, Clock::time_point now) {
  auto [it, inserted] = buckets_.try_emplace(key, Bucket{capacity_, now});
  Bucket& b = it->second;
  if (!inserted && now > b.last) {
    double elapsed = std::chrono::duration<double>(now - b.last).count();
    b.tokens = std::min(capacity_, b.tokens + elapsed * rate_);
    b.last = now;
  }
  return b;
}

bool TokenBuckets::take(const std::string& key, double n, Clock::time_point now) {
  Bucket& b = refill(key, now);
  if (b.tokens < n) return false;
  b.tokens -= n;
  return true;
}

bool TokenBuckets::available(const std::string& key, double n, Clock::time_point now) {
  return refill(key, now).tokens >= n;
}

bool UniqueGate::firstInInterval(const std::string& key, Clock::time_point now) {
  if (last_.size() > 100000) prune(now);  // bounds memory under high label cardinality
  auto [it, inserted] = last_.try_emplace(key, now);
  if (inserted) return true;
  if (now - it->second < interval_) return false;
  it->second = now;
  return true;
}

void UniqueGate::prune(Clock::time_point now) {
  std::erase_if(last_, [&](const auto& e) { return now - e.second >= interval_; });
}

}  // namespace proflow::processors::sample
