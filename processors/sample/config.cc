#include "processors/sample/config.h"

#include <algorithm>
#include <cmath>

namespace proflow::processors::sample {

void SampleConfig::validate(config::ValidationContext& ctx) const {
  if (mode != "probabilistic" && mode != "rate_limit" && mode != "downsample")
    ctx.error("mode", "mode must be probabilistic, rate_limit or downsample, got '" + mode + "'");
  if (!(percentage >= 0 && percentage <= 100))
    ctx.error("percentage", "percentage must be within 0..100, got " + std::to_string(percentage));
  for (const auto& k : hash_key)
    if (k.empty()) ctx.error("hash_key", "hash_key entries must not be empty");
  if (!(limit > 0) || !std::isfinite(limit))
    ctx.error("limit", "limit must be > 0, got " + std::to_string(limit));
  if (unit != "profiles" && unit != "samples") ctx.error("unit", "unit must be profiles or samples, got '" + unit + "'");
  if (on_limit != "refuse" && on_limit != "drop")
    ctx.error("on_limit", "on_limit must be refuse or drop, got '" + on_limit + "'");
  if (service_key.empty()) ctx.error("service_key", "service_key must not be empty");
  if (!(probability > 0 && probability <= 1))
    ctx.error("probability", "probability must be within (0, 1], got " + std::to_string(probability));
  for (const auto& k : keep_unique_by)
    if (k.empty()) ctx.error("keep_unique_by", "keep_unique_by entries must not be empty");
  if (!keep_unique_by.empty() && unique_interval.value.count() <= 0)
    ctx.error("unique_interval", "unique_interval must be > 0 when keep_unique_by is set");
}

uint64_t SampleConfig::bucketSize() const {
  if (burst != 0) return burst;
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(limit)));
}

}  // namespace proflow::processors::sample
