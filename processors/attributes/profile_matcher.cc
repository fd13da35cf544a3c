#include "processors/attributes/profile_matcher.h"

#include <stdexcept>

namespace proflow::processors::attributes {

PropertyMatcher::PropertyMatcher(const MatchConfig& c) {
  bool regexp = c.match_type == "regexp";
  auto fill = [&](List& l, const std::vector<std::string>& values) {
    for (const auto& v : values) {
      std::string error;  // cannot happen: MatchConfig::validate compiled the same patterns
      if (!regexp) l.exact.push_back(v);
      else if (auto re = proflow::attributes::compileRegex(v, &error)) l.patterns.push_back(std::move(re));
      else throw std::invalid_argument(error);
    }
  };
  fill(sample_types_, c.sample_types);
  fill(services_, c.services);
}

bool PropertyMatcher::List::matches(std::string_view s) const {
  for (const auto& e : exact)
    if (e == s) return true;
  for (const auto& p : patterns)
    if (proflow::attributes::regexSearch(*p, s)) return true;
  return false;
}

bool PropertyMatcher::matches(std::string_view sample_type, std::string_view service) const {
  if (!sample_types_.empty() && !sample_types_.matches(sample_type)) return false;
  if (!services_.empty() && !services_.matches(service)) return false;
  return true;
}

ProfileMatcher::ProfileMatcher(const std::optional<MatchConfig>& include, const std::optional<MatchConfig>& exclude) {
  if (include) include_.emplace(*include);
  if (exclude) exclude_.emplace(*exclude);
}

bool ProfileMatcher::selected(std::string_view sample_type, std::string_view service) const {
  if (include_ && !include_->matches(sample_type, service)) return false;
  if (exclude_ && exclude_->matches(sample_type, service)) return false;
  return true;
}

}  // namespace proflow::processors::attributes
