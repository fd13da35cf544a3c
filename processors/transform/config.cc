#include "processors/transform/config.h"

namespace proflow::processors::transform {
namespace {

std::optional<ottl::ContextKind> readContext(const config::ConfigNode& node, config::ValidationContext& ctx,
                                             const std::string& field, bool* ok) {
  if (node.isNull()) return std::nullopt;
  auto c = node.isScalar() ? ottl::parseContext(node.scalar) : std::nullopt;
  if (!c) {
    ctx.errorAt(field, node.location,
                "context must be resource, scope, profile or sample, got " + config::quoteValue(node.scalar));
    *ok = false;
  }
  return c;
}

GroupSpec readGroup(const config::ConfigNode& node, ottl::ErrorMode mode, config::ValidationContext& ctx,
                    const std::string& field) {
  GroupSpec g;
  g.field = field;
  g.error_mode = mode;
  bool ok = true;
  for (size_t i = 0; i < node.entries.size(); ++i) {
    const auto& [key, value] = node.entries[i];
    const std::string f = field + "." + key;
    if (key == "context") {
      g.context = readContext(value, ctx, f, &ok);
    } else if (key == "error_mode") {
      auto m = value.isScalar() ? ottl::parseErrorMode(value.scalar) : std::nullopt;
      if (m) g.error_mode = *m;
      else ctx.errorAt(f, value.location, "error_mode must be ignore, silent or propagate");
    } else if (key == "conditions") {
      g.conditions = ottl::readStringList(value, ctx, f);
    } else if (key == "statements") {
      g.statements = ottl::readStringList(value, ctx, f);
    } else {
      ctx.errorAt(f, node.key_locations[i],
                  "unknown key " + config::quoteValue(key) + "; valid keys: conditions, context, error_mode, statements");
    }
  }
  if (g.statements.texts.empty()) ctx.errorAt(field, node.location, "a group needs statements");
  return g;
}

}  // namespace

std::vector<GroupSpec> readGroups(const TransformConfig& c, config::ValidationContext& ctx) {
  std::vector<GroupSpec> groups;
  auto mode = ottl::parseErrorMode(c.error_mode).value_or(ottl::ErrorMode::kIgnore);
  const config::ConfigNode& list = c.profile_statements;
  if (list.isNull()) return groups;
  if (!list.isSequence()) {
    ctx.errorAt("profile_statements", list.location, "expected a list of statements or of statement groups");
    return groups;
  }
  GroupSpec basic;  // the list-of-strings form: one group, context inferred
  basic.field = "profile_statements";
  basic.error_mode = mode;
  bool strings = false, maps = false;
  for (size_t i = 0; i < list.items.size(); ++i) {
    const auto& item = list.items[i];
    const std::string field = "profile_statements[" + std::to_string(i) + "]";
    if (item.isScalar()) {
      strings = true;
      basic.statements.texts.push_back(item.scalar);
      basic.statements.locations.push_back(item.location);
    } else if (item.isMap()) {
      maps = true;
      groups.push_back(readGroup(item, mode, ctx, field));
    } else {
      ctx.errorAt(field, item.location, "expected a statement or a group {context, conditions, statements}");
    }
  }
  if (strings && maps)
    ctx.errorAt("profile_statements", list.location,
                "use either a list of statements or a list of groups, not both (as the Collector requires)");
  if (strings) groups.insert(groups.begin(), std::move(basic));
  return groups;
}

std::vector<CompiledGroup> compileGroups(const TransformConfig& c, config::ValidationContext& ctx) {
  ottl::checkErrorMode(ctx, "error_mode", c.error_mode);
  std::vector<CompiledGroup> out;
  for (const GroupSpec& g : readGroups(c, ctx)) {
    std::vector<ottl::CompileError> errors;
    auto group = ottl::StatementGroup::compile(g.context, g.conditions.texts, g.statements.texts, &errors);
    std::vector<ottl::CompileError> in_conditions, in_statements;
    for (auto& e : errors) (e.in_conditions ? in_conditions : in_statements).push_back(e);
    // The basic form has no `statements` key: its entries are the list's own.
    const bool basic = g.field == "profile_statements";
    ottl::reportCompileErrors(ctx, basic ? g.field : g.field + ".statements", g.statements, in_statements);
    ottl::reportCompileErrors(ctx, g.field + ".conditions", g.conditions, in_conditions);
    if (group) out.push_back({std::move(*group), g.error_mode});
  }
  return out;
}

void TransformConfig::validate(config::ValidationContext& ctx) const { compileGroups(*this, ctx); }

}  // namespace proflow::processors::transform
