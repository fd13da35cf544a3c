#include "processors/filter/filter_processor.h"

#include <stdexcept>

#include "core/flat/flat_attributes.h"
#include "processors/filter/frame_pruner.h"

namespace proflow::processors::filter {
namespace {

proflow::attributes::Regex compile(const std::string& pattern) {
  if (pattern.empty()) return nullptr;
  std::string error;  // FilterConfig::validate compiled the same pattern already
  auto re = proflow::attributes::compileRegex(pattern, &error);
  if (!re) throw std::invalid_argument(error);
  return re;
}

OttlConditions compileConditions(const FilterConfig& c) {
  config::ConfigErrors errors;
  config::FieldLocations locations;
  config::ValidationContext ctx(errors, "filter", locations, {});
  OttlConditions out = OttlConditions::compile(c.profiles, c.profile_conditions, ctx);
  if (!errors.empty()) throw std::invalid_argument(errors.format());  // validate() reported these already
  return out;
}

std::vector<CompiledRule> compileRules(const std::vector<MatchRule>& rules) {
  std::vector<CompiledRule> out;
  for (const auto& r : rules) out.push_back({r, compile(r.regex)});
  return out;
}

}  // namespace

bool CompiledRule::matches(const std::optional<std::string>& v) const {
  if (!v) return false;
  if (rule.value) return *v == *rule.value;
  if (regex) return re2::RE2::FullMatch(*v, *regex);
  return true;  // key present
}

FilterProcessor::FilterProcessor(const CreateSettings& settings, const FilterConfig& config, ConsumerPtr next)
    : settings_(settings),
      next_(std::move(next)),
      profile_rules_(compileRules(config.drop_profiles)),
      sample_rules_(compileRules(config.drop_samples)),
      drop_frames_(compile(config.drop_frames)),
      keep_frames_(compile(config.keep_frames)),
      conditions_(compileConditions(config)),
      error_mode_(ottl::parseErrorMode(config.error_mode).value_or(ottl::ErrorMode::kPropagate)) {
  if (auto* t = settings_.telemetry) {
    pruned_ = &t->counter("filter_pruned_samples_total", "samples whose stack lost frames to drop_frames");
    condition_errors_ = &t->counter("filter_condition_errors_total", "OTTL conditions that failed on an item");
  }
}

bool FilterProcessor::dropProfile(const flat::Batch& b, const flat::ProfileRef& ref) const {
  for (const auto& r : profile_rules_) {
    const auto& in = r.rule.in;
    std::optional<std::string> v;
    if (in == "any") v = flat::lookupAttribute(b, ref, r.rule.key);
    else if (in == "profile") v = flat::profileAttribute(b, *ref.profile, r.rule.key);
    else if (in == "scope") v = flat::keyValueAttribute(b, ref.scope->attributes, r.rule.key);
    else v = flat::keyValueAttribute(b, ref.resource->attributes, r.rule.key);
    if (r.matches(v)) return true;
  }
  return false;
}

bool FilterProcessor::dropSample(const flat::Batch& b, size_t row) const {
  for (int32_t a : b.indexList(b.samples.attributes[row])) {
    if (a <= 0 || static_cast<size_t>(a) >= b.attributes.size()) continue;
    const flat::Attribute& kv = b.attributes[static_cast<size_t>(a)];
    std::string_view key = b.string(kv.key_strindex);
    for (const auto& r : sample_rules_)
      if (key == r.rule.key && r.matches(flat::valueText(b, kv.value))) return true;
  }
  return false;
}

void FilterProcessor::select(const flat::Batch& b, flat::Merger::Selection& keep, Stats& stats) const {
  keep.profiles.assign(b.profiles.size(), true);
  keep.samples.assign(b.samples.size(), true);
  for (const flat::Resource& r : b.resources)
    b.forEachScope(r, [&](uint32_t s) {
      const flat::Scope& scope = b.scopes[s];
      for (uint32_t p = scope.profiles.begin; p < scope.profiles.end(); ++p) {
        const flat::Profile& profile = b.profiles[p];
        if (!profile_rules_.empty() && dropProfile(b, flat::ProfileRef{&r, &scope, &profile})) {
          keep.profiles[p] = false;
          ++stats.profiles;
          stats.samples += profile.samples.size;
          continue;
        }
        if (sample_rules_.empty()) continue;
        for (uint32_t row = profile.samples.begin; row < profile.samples.end(); ++row)
          if (dropSample(b, row)) {
            keep.samples[row] = false;
            ++stats.samples;
          }
      }
    });
}

void FilterProcessor::pruneFrames(flat::Batch& b, const flat::Merger::Selection& keep, Stats& stats) const {
  flat::DictionaryIndex dict(&b);
  FramePruner pruner(drop_frames_.get(), keep_frames_.get(), dict);
  for (size_t p = 0; p < b.profiles.size(); ++p) {
    if (!keep.profiles.empty() && !keep.profiles[p]) continue;
    const flat::Range rows = b.profiles[p].samples;
    for (uint32_t row = rows.begin; row < rows.end(); ++row) {
      if (!keep.samples.empty() && !keep.samples[row]) continue;
      int32_t& stack = b.samples.stack_index[row];
      const int32_t pruned = pruner.prune(stack);
      if (pruned == stack) continue;
      stack = pruned;
      ++stats.pruned;
    }
  }
}

Status FilterProcessor::selectByConditions(const flat::Batch& b, flat::Merger::Selection& keep, Stats& stats) {
  OttlDrops drops;
  const bool propagate = error_mode_ == ottl::ErrorMode::kPropagate;
  const bool complete = conditions_.select(b, keep, propagate, &drops);
  stats.profiles += drops.profiles;
  stats.samples += drops.samples;
  if (drops.errors.errors == 0) return Status::ok();
  if (condition_errors_) condition_errors_->add(drops.errors.errors);
  if (!complete) return Status::invalid("filter: " + drops.errors.first_error);
  if (error_mode_ == ottl::ErrorMode::kIgnore && settings_.logger)
    log_throttle_.log(*settings_.logger, spdlog::level::warn, "condition",
                      "filter: " + std::to_string(drops.errors.errors) +
                          " failed condition(s) taken as false, first: " + drops.errors.first_error);
  return Status::ok();
}

Status FilterProcessor::consume(Batch batch) {
  Stats stats;
  flat::Merger::Selection keep;
  if (!profile_rules_.empty() || !sample_rules_.empty() || !conditions_.empty()) select(batch.data(), keep, stats);
  if (!conditions_.empty()) {
    Status s = selectByConditions(batch.data(), keep, stats);
    if (!s.isOk()) return s;
  }
  if (drop_frames_) pruneFrames(batch.mutableData(), keep, stats);
  if (pruned_) pruned_->add(stats.pruned);
  if (stats.profiles || stats.samples) {
    if (settings_.telemetry)
      settings_.telemetry->record(telemetry::Event::kDropped, BatchCounts{0, stats.profiles, stats.samples});
  }
  if (stats.profiles || stats.samples || stats.pruned) {
    // Copied into a fresh batch: what the dropped data alone used is left behind, and resources and
    // scopes left without a profile go too.
    flat::Batch fresh;
    flat::Merger merger(&fresh);
    merger.append(batch.data(), keep);
    fresh.shrinkToFit();
    batch = Batch(std::move(fresh)).withMetadataOf(batch);
  }
  if (batch.empty()) return Status::ok();
  return next_->consume(std::move(batch));
}

}  // namespace proflow::processors::filter
