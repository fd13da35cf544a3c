#include "processors/filter/config.h"

#include "core/attributes/named_regex.h"
#include "core/ottl/config_lists.h"

namespace proflow::processors::filter {
namespace {

void checkRegex(config::ValidationContext& ctx, std::string_view field, const std::string& pattern) {
  if (pattern.empty()) return;
  std::string error;
  if (!proflow::attributes::compileRegex(pattern, &error)) ctx.error(field, error);
}

}  // namespace

void MatchRule::validate(config::ValidationContext& ctx) const {
  if (key.empty()) ctx.error("key", "key is required");
  if (value && !regex.empty()) ctx.error("regex", "set value or regex, not both");
  checkRegex(ctx, "regex", regex);
  if (in != "any" && in != "resource" && in != "scope" && in != "profile")
    ctx.error("in", "in must be resource, scope, profile or any, got " + config::quoteValue(in));
}

void FilterConfig::validate(config::ValidationContext& ctx) const {
  for (size_t i = 0; i < drop_profiles.size(); ++i) {
    auto nested = ctx.nested("drop_profiles[" + std::to_string(i) + "]");
    drop_profiles[i].validate(nested);
  }
  for (size_t i = 0; i < drop_samples.size(); ++i) {
    auto nested = ctx.nested("drop_samples[" + std::to_string(i) + "]");
    if (drop_samples[i].in != "any") nested.error("in", "in applies to drop_profiles only");
    drop_samples[i].validate(nested);
  }
  checkRegex(ctx, "drop_frames", drop_frames);
  checkRegex(ctx, "keep_frames", keep_frames);
  if (!keep_frames.empty() && drop_frames.empty())
    ctx.error("keep_frames", "keep_frames only has an effect together with drop_frames");
  ottl::checkErrorMode(ctx, "error_mode", error_mode);
  const bool by_context = !profiles.resource.isNull() || !profiles.profile.isNull() || !profiles.sample.isNull();
  if (by_context && !profile_conditions.isNull())
    ctx.error("profile_conditions", "use profile_conditions or profiles.resource/profile/sample, not both (as the Collector requires)");
  OttlConditions::compile(profiles, profile_conditions, ctx);
}

}  // namespace proflow::processors::filter
