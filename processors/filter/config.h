// Configuration of the `filter` processor.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/config/config_node.h"
#include "core/config/config_reader.h"
#include "processors/filter/ottl_conditions.h"

namespace proflow::processors::filter {

// Matches one attribute: `key` present and, when given, its value equal to `value` or fully matching
// `regex` (one of the two at most).
struct MatchRule {
  std::string key;
  std::optional<std::string> value;
  std::string regex;
  std::string in = "any";  // profiles only: resource | scope | profile | any

  template <class V>
  void visit(V& v) {
    v.field("key", key, "attribute key");
    v.field("value", value, "exact value");
    v.field("regex", regex, "RE2 pattern the whole value must match");
    v.field("in", in, "drop_profiles: where the attribute lives: resource | scope | profile | any");
  }
  void validate(config::ValidationContext& ctx) const;
};

struct FilterConfig {
  std::vector<MatchRule> drop_profiles;  // a profile matching any rule is dropped
  std::vector<MatchRule> drop_samples;   // a sample whose attributes match any rule is dropped
  std::string drop_frames;               // frames whose function name fully matches are cut, with their callees
  std::string keep_frames;               // ... unless the name fully matches this
  // OTTL conditions in the Collector's shape; what one holds for is dropped.
  std::string error_mode = "propagate";
  ProfilesConditions profiles;
  config::ConfigNode profile_conditions;
  // Accepted so one Collector config can be shared; proflow carries profiles only.
  config::ConfigNode traces, metrics, logs, spans;

  template <class V>
  void visit(V& v) {
    v.field("error_mode", error_mode, "ignore | silent | propagate: what a failing OTTL condition does");
    v.field("profiles", profiles, "OTTL conditions by context: resource, profile, sample");
    v.field("profile_conditions", profile_conditions, "OTTL conditions, context inferred from their paths");
    v.field("drop_profiles", drop_profiles, "rules on resource/scope/profile attributes");
    v.field("drop_samples", drop_samples, "rules on sample attributes");
    v.field("drop_frames", drop_frames, "RE2: drop matching frames and everything they called (pprof semantics)");
    v.field("keep_frames", keep_frames, "RE2: frames matching this are never dropped");
    v.field("traces", traces, "accepted and ignored (no traces in proflow)");
    v.field("metrics", metrics, "accepted and ignored (no metrics in proflow)");
    v.field("logs", logs, "accepted and ignored (no logs in proflow)");
    v.field("spans", spans, "accepted and ignored (the Collector's older span filter)");
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::processors::filter
