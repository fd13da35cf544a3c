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

// A double-quoted OTTL string at `*i` (escapes \" and \\), moved past.
bool readQuoted(std::string_view text, size_t* i, std::string* out) {
  if (*i >= text.size() || text[*i] != '"') return false;
  for (size_t j = *i + 1; j < text.size(); ++j) {
    if (text[j] == '\\' && j + 1 < text.size()) {
      out->push_back(text[++j]);
    } else if (text[j] == '"') {
      *i = j + 1;
      return true;
    } else {
      out->push_back(text[j]);
    }
  }
  return false;
}

}  // namespace

std::optional<RequestCondition> compileRequestRoute(const RouteConfig& route, std::string* error) {
  std::string text = route.condition;
  size_t offset = 0;
  if (text.empty() && !splitStatement(route.statement, &text, &offset)) {
    *error = "column 1: a routing statement reads route() where <condition>";
    return std::nullopt;
  }
  size_t i = 0;
  auto fail = [&](const std::string& what) {
    *error = "column " + std::to_string(i + offset + 1) + ": " + what +
             " (the request context takes request[\"<metadata key>\"] == \"<value>\" or !=)";
    return std::nullopt;
  };
  auto skip = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  };
  auto take = [&](std::string_view word) {
    skip();
    if (text.compare(i, word.size(), word) != 0) return false;
    i += word.size();
    return true;
  };
  RequestCondition c;
  auto path = [&] {
    if (!take("request") || !take("[")) return false;
    skip();
    if (!readQuoted(text, &i, &c.key)) return false;
    return take("]");
  };
  auto literal = [&] {
    skip();
    return readQuoted(text, &i, &c.value);
  };
  skip();
  const bool path_first = text.compare(i, 7, "request") == 0;
  if (!(path_first ? path() : literal())) return fail(path_first ? "expected request[\"<key>\"]" : "expected a string");
  if (take("==")) {
    c.equal = true;
  } else if (take("!=")) {
    c.equal = false;
  } else {
    return fail("expected == or !=");
  }
  if (!(path_first ? literal() : path())) return fail(path_first ? "expected a string" : "expected request[\"<key>\"]");
  skip();
  if (i != text.size()) return fail("unexpected text after the comparison");
  if (c.key.empty()) return fail("the metadata key is empty");
  return c;
}

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
    if (r.context != "resource" && r.context != "request")
      ctx.error(at + ".context", "context '" + r.context + "' is not supported; valid: resource, request");
    if (r.pipelines.empty()) ctx.error(at + ".pipelines", "a route needs at least one pipeline");
    if (r.condition.empty() == r.statement.empty()) {
      ctx.error(at, "a route needs either condition or statement (one of them)");
      continue;
    }
    std::string error;
    const bool ok = r.context == "request" ? compileRequestRoute(r, &error).has_value() : compileRoute(r, &error).has_value();
    if (!ok) ctx.error(at + (r.condition.empty() ? ".statement" : ".condition"), "invalid OTTL: " + error);
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
