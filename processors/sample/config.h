// Configuration of the `sample` processor.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/config_reader.h"
#include "core/config/config_types.h"

namespace proflow::processors::sample {

struct SampleConfig {
  std::string mode = "probabilistic";  // probabilistic | rate_limit | downsample

  // probabilistic
  double percentage = 10;              // share of profiles kept, 0..100
  std::vector<std::string> hash_key;   // attribute keys hashed for the decision; empty = default key
  uint32_t hash_seed = 0;              // every replica must use the same seed to decide alike

  // rate_limit
  double limit = 100;                  // tokens per second per service
  uint64_t burst = 0;                  // bucket size; 0 = max(1, limit)
  std::string unit = "profiles";       // profiles | samples
  std::string on_limit = "refuse";     // refuse (retryable) | drop
  std::string service_key = "service.name";

  // downsample
  double probability = 0.1;            // chance to keep each sample, (0, 1]
  uint64_t seed = 0;

  // exemptions (all modes)
  bool keep_linked = true;
  std::vector<std::string> keep_unique_by;
  config::Duration unique_interval = std::chrono::minutes(1);

  template <class V>
  void visit(V& v) {
    v.field("mode", mode, "probabilistic | rate_limit | downsample");
    v.field("percentage", percentage, "probabilistic: percent of profiles kept (0..100)");
    v.field("hash_key", hash_key, "probabilistic: attribute keys hashed; default profile_id, else service.name+time");
    v.field("hash_seed", hash_seed, "probabilistic: seed of the hash; the same on every replica");
    v.field("limit", limit, "rate_limit: profiles (or samples) per second per service");
    v.field("burst", burst, "rate_limit: token bucket size; 0 = limit");
    v.field("unit", unit, "rate_limit: profiles | samples");
    v.field("on_limit", on_limit, "rate_limit: refuse (retryable) | drop");
    v.field("service_key", service_key, "rate_limit: attribute whose value names the bucket");
    v.field("probability", probability, "downsample: chance to keep each sample, (0, 1]");
    v.field("seed", seed, "downsample: seed of the per-sample decisions");
    v.field("keep_linked", keep_linked, "always keep profiles (downsample: samples) linked to a trace");
    v.field("keep_unique_by", keep_unique_by, "keep the first profile of each combination of these labels");
    v.field("unique_interval", unique_interval, "per keep_unique_by combination, once per this interval");
  }
  void validate(config::ValidationContext& ctx) const;

  uint64_t bucketSize() const;
};

}  // namespace proflow::processors::sample
