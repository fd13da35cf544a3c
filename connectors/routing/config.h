// Config of the `routing` connector, in the Collector's shape (see README.md).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/config/config_reader.h"
#include "core/ottl/program.h"

namespace proflow::connectors::routing {

struct RouteConfig {
  std::string context = "resource";
  std::string condition;  // an OTTL condition
  std::string statement;  // or `route() where <condition>`
  std::vector<std::string> pipelines;
  template <class V>
  void visit(V& v) {
    v.field("context", context,
            "what the condition is asked of: resource (each resource of a batch) or request (the request metadata "
            "a receiver kept with include_metadata: request[\"X-Scope-OrgID\"] == \"acme\")");
    v.field("condition", condition, "OTTL condition, e.g. attributes[\"tenant.id\"] == \"acme\"");
    v.field("statement", statement, "OTTL statement: route() where <condition> (instead of condition)");
    v.field("pipelines", pipelines, "pipelines receiving the resources that match");
  }
};

struct RoutingConnectorConfig {
  std::vector<RouteConfig> table;
  std::vector<std::string> default_pipelines;
  std::string error_mode = "propagate";
  template <class V>
  void visit(V& v) {
    v.field("table", table, "routes: [{condition | statement, pipelines}]; a resource takes the first that matches");
    v.field("default_pipelines", default_pipelines, "pipelines receiving resources no route matches");
    v.field("error_mode", error_mode,
            "propagate (refuse the batch), ignore (log, treat as no match) or silent: a condition failing to evaluate");
  }
  void validate(config::ValidationContext& ctx) const;
  // Every pipeline named must receive from the connector.
  void checkRoutes(const std::set<std::string>& routes, config::ValidationContext& ctx) const;
};

// A route's condition compiled, or nullopt with `*error` ("column C: message", the column inside
// the condition or statement as written).
std::optional<ottl::ConditionSet> compileRoute(const RouteConfig& route, std::string* error);

// A condition of the request context: request["<metadata key>"] == "<value>" (or !=), asked of the
// metadata the receiver kept (include_metadata), as the Collector's routing connector takes it.
// The key compares case-insensitively; the first value of the key is compared (an absent key is
// "").
struct RequestCondition {
  std::string key;
  std::string value;
  bool equal = true;
};
std::optional<RequestCondition> compileRequestRoute(const RouteConfig& route, std::string* error);

}  // namespace proflow::connectors::routing
