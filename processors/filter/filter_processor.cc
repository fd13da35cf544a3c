#include "processors/filter/filter_processor.h"

#include <stdexcept>

#include "core/dictionary_builder.h"
#include "core/repeated_fields.h"
#include "core/request_merger.h"
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
      keep_frames_(compile(config.keep_frames)) {
  if (auto* t = settings_.telemetry)
    pruned_ = &t->counter("filter_pruned_samples_total", "samples whose stack lost frames to drop_frames");
}

bool FilterProcessor::dropProfile(const ProfileRef& ref, const otlp::Dictionary& dict) const {
  for (const auto& r : profile_rules_) {
    const auto& in = r.rule.in;
    std::optional<std::string> v;
    if (in == "any") v = lookupAttribute(ref, dict, r.rule.key);
    else if (in == "profile") v = findProfileAttribute(*ref.profile, dict, r.rule.key);
    else if (in == "scope") v = findKeyValue(ref.scope->scope().attributes(), dict, r.rule.key);
    else v = findKeyValue(ref.resource->resource().attributes(), dict, r.rule.key);
    if (r.matches(v)) return true;
  }
  return false;
}

bool FilterProcessor::dropSample(const otlp::Sample& s, const otlp::Dictionary& dict) const {
  for (int32_t a : s.attribute_indices()) {
    if (a <= 0 || a >= dict.attribute_table_size()) continue;
    const auto& kv = dict.attribute_table(a);
    std::string_view key = dictString(dict, kv.key_strindex());
    for (const auto& r : sample_rules_)
      if (key == r.rule.key && r.matches(valueText(kv.value(), dict))) return true;
  }
  return false;
}

void FilterProcessor::filterRequest(otlp::Request& req, Stats& stats) const {
  const auto& dict = req.dictionary();
  for (auto& rp : *req.mutable_resource_profiles()) {
    for (auto& sp : *rp.mutable_scope_profiles()) {
      removeIf(sp.mutable_profiles(), [&](const otlp::Profile& p) {
        if (profile_rules_.empty() || !dropProfile(ProfileRef{&rp, &sp, &p}, dict)) return false;
        ++stats.profiles;
        stats.samples += static_cast<uint64_t>(p.samples_size());
        return true;
      });
      if (sample_rules_.empty()) continue;
      for (auto& p : *sp.mutable_profiles())
        removeIf(p.mutable_samples(), [&](const otlp::Sample& s) {
          bool drop = dropSample(s, dict);
          stats.samples += drop;
          return drop;
        });
    }
  }
  dropEmptyScopesAndResources(req);
}

void FilterProcessor::pruneFrames(otlp::Request& req, Stats& stats) const {
  DictionaryBuilder dict(req.mutable_dictionary());
  FramePruner pruner(drop_frames_.get(), keep_frames_.get(), dict);
  for (auto& rp : *req.mutable_resource_profiles())
    for (auto& sp : *rp.mutable_scope_profiles())
      for (auto& p : *sp.mutable_profiles())
        for (auto& s : *p.mutable_samples()) {
          int32_t pruned = pruner.prune(s.stack_index());
          if (pruned == s.stack_index()) continue;
          s.set_stack_index(pruned);
          ++stats.pruned;
        }
}

Status FilterProcessor::consume(Batch batch) {
  auto& req = batch.mutableRequest();
  Stats stats;
  if (!profile_rules_.empty() || !sample_rules_.empty()) filterRequest(req, stats);
  if (drop_frames_) pruneFrames(req, stats);
  if (pruned_) pruned_->add(stats.pruned);
  if (stats.profiles || stats.samples) {
    if (settings_.telemetry)
      settings_.telemetry->record(telemetry::Event::kDropped, BatchCounts{0, stats.profiles, stats.samples});
  }
  if (stats.profiles || stats.samples || stats.pruned) {
    // Re-intern into a fresh dictionary: entries only the removed data used are not copied.
    otlp::Request fresh;
    RequestMerger merger(&fresh);
    merger.append(req);
    req = std::move(fresh);
  }
  if (batch.empty()) return Status::ok();
  return next_->consume(std::move(batch));
}

}  // namespace proflow::processors::filter
