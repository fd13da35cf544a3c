#include "processors/attributes/config.h"

#include "core/attributes/named_regex.h"

namespace proflow::processors::attributes {

void MatchConfig::validate(config::ValidationContext& ctx) const {
  if (match_type != "strict" && match_type != "regexp")
    ctx.error("match_type", "match_type must be strict or regexp, got " + config::quoteValue(match_type));
  if (sample_types.empty() && services.empty())
    ctx.error("", "needs at least one of sample_types or services");
  if (match_type != "regexp") return;
  auto check = [&](const std::vector<std::string>& list, const char* field) {
    for (size_t i = 0; i < list.size(); ++i) {
      std::string err;
      if (!proflow::attributes::compileRegex(list[i], &err))
        ctx.error(std::string(field) + "[" + std::to_string(i) + "]", err);
    }
  };
  check(sample_types, "sample_types");
  check(services, "services");
}

void AttributesProcessorConfig::validate(config::ValidationContext& ctx) const {
  proflow::attributes::validateActions(actions, "actions", /*required=*/true, ctx);
  if (include) {
    auto c = ctx.nested("include");
    include->validate(c);
  }
  if (exclude) {
    auto c = ctx.nested("exclude");
    exclude->validate(c);
  }
}

}  // namespace proflow::processors::attributes
