#include "processors/resource/config.h"

namespace proflow::processors::resource {

void ResourceProcessorConfig::validate(config::ValidationContext& ctx) const {
  attributes::validateActions(attributes, "attributes", /*required=*/true, ctx);
}

}  // namespace proflow::processors::resource
