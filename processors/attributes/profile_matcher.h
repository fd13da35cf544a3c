// Decides which profiles the `attributes` processor edits, from the include / exclude blocks.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/attributes/named_regex.h"
#include "processors/attributes/config.h"

namespace proflow::processors::attributes {

class PropertyMatcher {
 public:
  explicit PropertyMatcher(const MatchConfig& config);
  bool matches(std::string_view sample_type, std::string_view service) const;

 private:
  struct List {
    std::vector<std::string> exact;
    std::vector<proflow::attributes::Regex> patterns;
    bool empty() const { return exact.empty() && patterns.empty(); }
    bool matches(std::string_view s) const;
  };
  List sample_types_;
  List services_;
};

class ProfileMatcher {
 public:
  ProfileMatcher(const std::optional<MatchConfig>& include, const std::optional<MatchConfig>& exclude);
  // False when nothing is filtered, so callers can skip looking names up.
  bool filters() const { return include_ || exclude_; }
  bool selected(std::string_view sample_type, std::string_view service) const;

 private:
  std::optional<PropertyMatcher> include_;
  std::optional<PropertyMatcher> exclude_;
};

}  // namespace proflow::processors::attributes
