// Configuration of the `attributes` processor: the Collector's `actions:` list plus `include` /
// `exclude` blocks that pick the profiles whose samples are edited.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/attributes/action_config.h"
#include "core/config/config_reader.h"

namespace proflow::processors::attributes {

// A profile matches when every listed property matches (any entry of a list).
struct MatchConfig {
  std::string match_type = "strict";      // strict (equality) or regexp (search, anchor with ^...$)
  std::vector<std::string> sample_types;  // Profile.sample_type type, e.g. cpu, alloc_space, wall
  std::vector<std::string> services;      // resource service.name

  template <class V>
  void visit(V& v) {
    v.field("match_type", match_type, "strict or regexp");
    v.field("sample_types", sample_types, "profile sample types (cpu, alloc_space, ...)");
    v.field("services", services, "resource service.name values");
  }
  void validate(config::ValidationContext& ctx) const;
};

struct AttributesProcessorConfig {
  std::optional<MatchConfig> include;
  std::optional<MatchConfig> exclude;
  std::vector<proflow::attributes::ActionConfig> actions;

  template <class V>
  void visit(V& v) {
    v.field("include", include, "only profiles matching this are edited");
    v.field("exclude", exclude, "profiles matching this are left alone (wins over include)");
    v.field("actions", actions, "actions applied in order to the attributes of every sample");
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::processors::attributes
