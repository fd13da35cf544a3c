// The filter processor's OTTL conditions, in the Collector's shape: `profiles: {resource, profile,
// sample}` (sample is proflow's) and the context-inferred `profile_conditions`. An item a condition
// holds for is dropped, outer levels first (a dropped resource's profiles are not looked at).
#pragma once

#include <optional>
#include <vector>

#include "core/config/config_node.h"
#include "core/config/config_reader.h"
#include "core/flat/flat_merge.h"
#include "core/ottl/program.h"

namespace proflow::processors::filter {

struct ProfilesConditions {
  config::ConfigNode resource, profile, sample;

  template <class V>
  void visit(V& v) {
    v.field("resource", resource, "OTTL conditions: a resource one holds for is dropped with its profiles");
    v.field("profile", profile, "OTTL conditions: a profile one holds for is dropped");
    v.field("sample", sample, "OTTL conditions: a sample one holds for is dropped (frames: AnyFrame(...))");
  }
};

// What dropping by conditions met in one batch.
struct OttlDrops {
  uint64_t profiles = 0, samples = 0;
  ottl::RunStats errors;
};

class OttlConditions {
 public:
  // Compiles `profiles` and `profile_conditions`; errors go to `ctx` (their YAML locations).
  static OttlConditions compile(const ProfilesConditions& profiles, const config::ConfigNode& profile_conditions,
                                config::ValidationContext& ctx);

  bool empty() const { return sets_.empty(); }
  // Unselects in `keep` (sized to the batch) what the conditions drop. A failing condition counts as
  // not holding; with `stop_on_error` the first one stops the pass and returns false.
  bool select(const flat::Batch& b, flat::Merger::Selection& keep, bool stop_on_error, OttlDrops* drops) const;

 private:
  std::vector<ottl::ConditionSet> sets_;  // outermost context first
};

}  // namespace proflow::processors::filter
