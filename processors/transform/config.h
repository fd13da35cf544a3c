// Configuration of the `transform` processor, in the Collector's shape: `error_mode` and
// `profile_statements`, a list of statements (one group, context inferred) or of groups
// `{context, error_mode, conditions, statements}`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/config/config_node.h"
#include "core/config/config_reader.h"
#include "core/ottl/config_lists.h"
#include "core/ottl/program.h"

namespace proflow::processors::transform {

struct TransformConfig {
  std::string error_mode = "ignore";
  config::ConfigNode profile_statements;
  // Accepted so one Collector config can be shared; proflow carries profiles only.
  config::ConfigNode trace_statements, metric_statements, log_statements;

  template <class V>
  void visit(V& v) {
    v.field("error_mode", error_mode, "ignore | silent | propagate: what a failing statement does");
    v.field("profile_statements", profile_statements,
            "OTTL statements, or groups {context, error_mode, conditions, statements}");
    v.field("trace_statements", trace_statements, "accepted and ignored (no traces in proflow)");
    v.field("metric_statements", metric_statements, "accepted and ignored (no metrics in proflow)");
    v.field("log_statements", log_statements, "accepted and ignored (no logs in proflow)");
  }
  void validate(config::ValidationContext& ctx) const;
};

// One group as written in YAML.
struct GroupSpec {
  std::optional<ottl::ContextKind> context;  // nullopt: inferred from the paths
  ottl::ErrorMode error_mode = ottl::ErrorMode::kIgnore;
  ottl::SourcedList conditions, statements;
  std::string field;  // e.g. profile_statements[1]
};

// Reads `profile_statements`, reporting malformed entries through `ctx`.
std::vector<GroupSpec> readGroups(const TransformConfig& c, config::ValidationContext& ctx);

struct CompiledGroup {
  ottl::StatementGroup group;
  ottl::ErrorMode error_mode;
};

// Reads and compiles every group; errors (with file:line:column and the column inside the
// statement) go to `ctx`. Complete only when `ctx` saw no error.
std::vector<CompiledGroup> compileGroups(const TransformConfig& c, config::ValidationContext& ctx);

}  // namespace proflow::processors::transform
