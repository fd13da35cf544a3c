// The decisions of the `sample` processor, free of any pipeline plumbing so they are easy to test:
// a replica-stable hash for probabilistic sampling, per-service token buckets for rate limiting,
// hash-derived per-sample coins for downsampling, and the "first of each kind per interval" memory.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/util/stable_hash.h"

namespace proflow::processors::sample {

using Clock = std::chrono::steady_clock;

// stableHash and mix64 (the same on every machine) come from core/util/stable_hash.h.
// A uniform double in [0, 1) from the top 53 bits of `h`.
double unitInterval(uint64_t h);

// Keeps when the hash of `key` falls below `percentage` percent.
bool keepByHash(std::string_view key, uint32_t seed, double percentage);

// Scales `value` by 1/p with stochastic rounding driven by `u` in [0, 1): the expectation is exactly
// value/p, so summed totals stay unbiased while values stay integers.
int64_t scaleUnbiased(int64_t value, double p, double u);

// Token buckets keyed by service; `rate` tokens per second up to `capacity`.
class TokenBuckets {
 public:
  TokenBuckets(double rate, double capacity) : rate_(rate), capacity_(capacity) {}
  // Takes `n` tokens when the bucket holds them.
  bool take(const std::string& key, double n, Clock::time_point now);
  // Whether `n` tokens are available now, without taking them.
  bool available(const std::string& key, double n, Clock::time_point now);

 private:
  struct Bucket {
    double tokens;
    Clock::time_point last;
  };
  Bucket& refill(const std::string& key, Clock::time_point now);

  double rate_;
  double capacity_;
  std::unordered_map<std::string, Bucket> buckets_;
};

// Remembers when each label combination was last let through; the first one per interval passes.
class UniqueGate {
 public:
  explicit UniqueGate(Clock::duration interval) : interval_(interval) {}
  bool firstInInterval(const std::string& key, Clock::time_point now);

 private:
  void prune(Clock::time_point now);
  Clock::duration interval_;
  std::unordered_map<std::string, Clock::time_point> last_;
};

}  // namespace proflow::processors::sample
