// One attribute action as written in YAML, in the Collector's shape:
//   {key | pattern, value | from_attribute, action, converted_type}
// shared by the `resource` processor (`attributes:` list) and the `attributes` processor (`actions:`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/config/config_node.h"
#include "core/config/config_reader.h"
#include "core/model/otlp_types.h"

namespace proflow::attributes {

enum class ActionKind { kInsert, kUpdate, kUpsert, kDelete, kHash, kExtract, kConvert };
enum class ConvertType { kNone, kString, kInt, kDouble, kBool };

struct ActionConfig {
  std::string key;
  std::string pattern;         // key regex (update/delete/hash/convert) or value regex (extract)
  config::ConfigNode value;    // a YAML scalar: bool, int, double or string (quoted stays a string)
  std::string from_attribute;  // copy the value of this attribute instead of `value`
  std::string from_context;    // or the request metadata the receiver kept: "metadata.<key>" or "<key>"
  std::string action;
  std::string converted_type;  // convert only: string, int, double or bool

  template <class V>
  void visit(V& v) {
    v.field("key", key, "attribute the action works on");
    v.field("pattern", pattern, "regex over keys (delete, hash, update, convert) or over the value (extract)");
    v.field("value", value, "literal value (insert, update, upsert)");
    v.field("from_attribute", from_attribute, "take the value of this attribute (insert, update, upsert)");
    v.field("from_context", from_context,
            "take the value of this request metadata key, metadata.<key> (the receiver needs include_metadata; "
            "several values are joined with ';')");
    v.field("action", action, "insert, update, upsert, delete, hash, extract or convert");
    v.field("converted_type", converted_type, "convert: string, int, double or bool");
  }
  void validate(config::ValidationContext& ctx) const;
};

std::optional<ActionKind> parseActionKind(const std::string& s);
std::optional<ConvertType> parseConvertType(const std::string& s);

// The typed value of a YAML scalar: quoted -> string; true/false -> bool; integer -> int;
// number -> double; anything else -> string.
otlp::AnyValue scalarToValue(const config::ConfigNode& n);

// Validates every action of a list field named `field` (e.g. "actions"); errors point at
// "<field>[i].<key>". Also reports an empty list when `required`.
void validateActions(const std::vector<ActionConfig>& actions, const char* field, bool required,
                     config::ValidationContext& ctx);

}  // namespace proflow::attributes
