#include "connectors/routing/config.h"

#include "core/ottl/config_lists.h"

namespace proflow::connectors::routing {
namespace {

// `route() where <condition>`: the condition and where it starts in the statement.
bool splitStatement(const std::string& statement, std::string* condition, size_t* offset) {
  size_t i = statement.find_first_not_of(" \t");
  auto take = [&](std::string_view word) {
    if (i == std::string::npos || statement.compare(i, word.size(), word) != 0) return false;
    i = statement.find_first_not_of(" \t", i + word.size());
    return true;
  };
  if (!take("route") || !take("(") || !take(")") || !take("where") || i == std::string::npos) return false;
  *condition = statement.substr(i);
  *offset = i;
  return true;
}

}  // namespace

std::optional<ottl::ConditionSet> compileRoute(const RouteConfig& route, std::string* error) {
  std::string text = route.condition;
  size_t offset = 0;
  if (text.empty() && !splitStatement(route.statement, &text, &offset)) {
    *error = "column 1: a routing statement reads route() where <condition>";
    return std::nullopt;
  }
  std::vector<ottl::CompileError> errors;
  auto set = ottl::ConditionSet::compile(ottl::ContextKind::kResource, {text}, &errors);
  if (!set) {
    const auto& e = errors.front();
    *error = "column " + std::to_string(static_cast<size_t>(e.column) + offset) + ": " + e.message;
  }
  return set;
}

void RoutingConnectorConfig::validate(config::ValidationContext& ctx) const {
  if (table.empty()) ctx.error("table", "the routing table needs at least one route");
  ottl::checkErrorMode(ctx, "error_mode", error_mode);
  for (size_t i = 0; i < table.size(); ++i) {
    const RouteConfig& r = table[i];
    const std::string at = "table[" + std::to_string(i) + "]";
    if (r.context != "resource")
      ctx.error(at + ".context", "context '" + r.context + "' is not supported; profiles are routed by resource");
    if (r.pipelines.empty()) ctx.error(at + ".pipelines", "a route needs at least one pipeline");
    if (r.condition.empty() == r.statement.empty()) {
      ctx.error(at, "a route needs either condition or statement (one of them)");
      continue;
    }
    std::string error;
    if (!compileRoute(r, &error))
      ctx.error(at + (r.condition.empty() ? ".statement" : ".condition"), "invalid OTTL: " + error);
  }
}

void RoutingConnectorConfig::checkRoutes(const std::set<std::string>& routes, config::ValidationContext& ctx) const {
  std::string known;
  for (const auto& r : routes) known += (known.empty() ? "" : ", ") + r;
  auto check = [&](const std::vector<std::string>& names, const std::string& field) {
    for (const auto& name : names)
      if (!routes.count(name))
        ctx.error(field, "pipeline '" + name + "' does not list this connector as a receiver; pipelines that do: " +
                             (known.empty() ? "(none)" : known));
  };
  for (size_t i = 0; i < table.size(); ++i) check(table[i].pipelines, "table[" + std::to_string(i) + "].pipelines");
  check(default_pipelines, "default_pipelines");
}

}  // namespace proflow::connectors::routing
