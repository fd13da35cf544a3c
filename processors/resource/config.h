// Configuration of the `resource` processor: the Collector's `attributes:` list of actions.
#pragma once

#include <vector>

#include "core/attributes/action_config.h"
#include "core/config/config_reader.h"

namespace proflow::processors::resource {

struct ResourceProcessorConfig {
  std::vector<attributes::ActionConfig> attributes;

  template <class V>
  void visit(V& v) {
    v.field("attributes", attributes, "actions applied in order to every resource's attributes");
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::processors::resource
