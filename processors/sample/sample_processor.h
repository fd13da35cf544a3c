// The `sample` processor: cuts profile volume while keeping the signal.
//  - probabilistic: keeps a profile when a replica-stable hash of its key falls below `percentage`;
//    kept profiles carry `sampling.ratio`.
//  - rate_limit: per-service token buckets of profiles or samples per second; the excess is refused
//    (retryable, the whole batch, nothing taken) or dropped per profile.
//  - downsample: keeps each sample with probability p and scales its values by 1/p (unbiased).
// Exempt from all modes: profiles with trace-linked samples (keep_linked; in downsample mode the
// linked samples themselves) and the first profile of each keep_unique_by combination per interval.
#pragma once

#include <functional>
#include <mutex>

#include "core/component/factory.h"
#include "core/flat/flat_attributes.h"
#include "core/flat/flat_merge.h"
#include "processors/sample/config.h"
#include "processors/sample/sampler.h"

namespace proflow::processors::sample {

class SampleProcessor final : public Processor {
 public:
  using ClockFn = std::function<Clock::time_point()>;
  SampleProcessor(const CreateSettings& settings, const SampleConfig& config, ConsumerPtr next,
                  ClockFn clock = [] { return Clock::now(); });

  Capabilities capabilities() const override { return {.mutates_data = true}; }
  Status start(Host&) override { return Status::ok(); }
  void shutdown(Deadline) override {}
  Status consume(Batch batch) override;

 private:
  struct Stats {
    uint64_t profiles_dropped = 0;
    uint64_t samples_dropped = 0;
  };
  enum class Verdict { kKeep, kKeepRatio, kDrop };

  bool linked(const flat::Batch& b, const flat::Profile& p) const;
  std::string uniqueKey(const flat::Batch& b, const flat::ProfileRef& ref) const;
  std::string defaultKey(const flat::Batch& b, const flat::ProfileRef& ref) const;
  std::string hashKey(const flat::Batch& b, const flat::ProfileRef& ref) const;
  double cost(const flat::Profile& p) const;
  // Calls fn(profile index, ref) for every profile, in resource -> scope -> profile order.
  template <class Fn>
  static void forEachProfile(const flat::Batch& b, Fn&& fn);

  Status refuseIfOverLimit(const flat::Batch& b, Clock::time_point now);
  Verdict decide(const flat::Batch& b, const flat::ProfileRef& ref, Clock::time_point now);
  // Unselects the dropped rows of `profile` in `keep` and scales the kept ones.
  void downsample(flat::Batch& b, uint32_t profile, const std::string& key, std::vector<bool>& keep, Stats& stats);
  void apply(flat::Batch& b, flat::Merger::Selection& keep, Stats& stats, Clock::time_point now);
  void markRatio(flat::DictionaryIndex& dict, uint32_t profile, double ratio);

  CreateSettings settings_;
  SampleConfig config_;
  ConsumerPtr next_;
  ClockFn clock_;

  std::mutex mu_;  // buckets and the unique gate are shared by concurrent consume() calls
  TokenBuckets buckets_;
  UniqueGate unique_;

  telemetry::Counter* kept_ = nullptr;
  telemetry::Counter* sampled_out_ = nullptr;
  telemetry::Counter* rate_limited_ = nullptr;
  telemetry::Counter* samples_downsampled_ = nullptr;
  telemetry::Counter* exempt_ = nullptr;
};

}  // namespace proflow::processors::sample
