// The `filter` processor: drops profiles by resource/scope/profile attributes, drops samples by
// sample attributes, and prunes frames with pprof drop_frames/keep_frames semantics. Dropped data is
// counted (Event::kDropped) and the batch's dictionary is rebuilt so nothing orphaned is sent.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "core/attributes/named_regex.h"
#include "core/component/factory.h"
#include "core/flat/flat_attributes.h"
#include "core/flat/flat_merge.h"
#include "core/telemetry/log_throttle.h"
#include "processors/filter/config.h"
#include "processors/filter/ottl_conditions.h"

namespace proflow::processors::filter {

// A MatchRule with its regex compiled.
struct CompiledRule {
  MatchRule rule;
  proflow::attributes::Regex regex;
  bool matches(const std::optional<std::string>& value) const;
};

class FilterProcessor final : public Processor {
 public:
  FilterProcessor(const CreateSettings& settings, const FilterConfig& config, ConsumerPtr next);

  Capabilities capabilities() const override { return {.mutates_data = true}; }
  Status start(Host&) override { return Status::ok(); }
  void shutdown(Deadline) override {}
  Status consume(Batch batch) override;

 private:
  struct Stats {
    uint64_t profiles = 0;
    uint64_t samples = 0;
    uint64_t pruned = 0;  // samples whose stack lost frames
  };
  bool dropProfile(const flat::Batch& b, const flat::ProfileRef& ref) const;
  bool dropSample(const flat::Batch& b, size_t row) const;
  // Unselects the profiles and samples the rules drop.
  void select(const flat::Batch& b, flat::Merger::Selection& keep, Stats& stats) const;
  // Then what the OTTL conditions drop; a refusal under error_mode propagate.
  Status selectByConditions(const flat::Batch& b, flat::Merger::Selection& keep, Stats& stats);
  void pruneFrames(flat::Batch& b, const flat::Merger::Selection& keep, Stats& stats) const;

  CreateSettings settings_;
  ConsumerPtr next_;
  std::vector<CompiledRule> profile_rules_;
  std::vector<CompiledRule> sample_rules_;
  proflow::attributes::Regex drop_frames_;
  proflow::attributes::Regex keep_frames_;
  telemetry::Counter* pruned_ = nullptr;
  OttlConditions conditions_;
  ottl::ErrorMode error_mode_ = ottl::ErrorMode::kPropagate;
  telemetry::Counter* condition_errors_ = nullptr;
  telemetry::LogThrottle log_throttle_;
};

}  // namespace proflow::processors::filter
