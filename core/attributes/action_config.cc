#include "core/attributes/action_config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>

#include "core/attributes/named_regex.h"
#include "core/util/ascii.h"

namespace proflow::attributes {
namespace {

bool hasValue(const ActionConfig& a) { return !a.value.isNull(); }

// Checks the key/pattern pair: `key_only` actions need a key; the others take a key or a pattern.
void checkTarget(const ActionConfig& a, ActionKind kind, config::ValidationContext& ctx) {
  const std::string& name = a.action;
  if (kind == ActionKind::kInsert || kind == ActionKind::kUpsert) {
    if (a.key.empty()) ctx.error("key", "action '" + name + "' needs a key");
    if (!a.pattern.empty()) ctx.error("pattern", "action '" + name + "' takes a key, not a pattern");
    return;
  }
  if (kind == ActionKind::kExtract) {
    if (a.key.empty()) ctx.error("key", "action 'extract' needs the key of the attribute to extract from");
    if (a.pattern.empty()) ctx.error("pattern", "action 'extract' needs a pattern with named groups");
    return;
  }
  if (a.key.empty() == a.pattern.empty())
    ctx.error(a.key.empty() ? "key" : "pattern", "action '" + name + "' needs exactly one of key or pattern");
}

void checkSource(const ActionConfig& a, ActionKind kind, config::ValidationContext& ctx) {
  bool wants_value = kind == ActionKind::kInsert || kind == ActionKind::kUpdate || kind == ActionKind::kUpsert;
  if (wants_value) {
    const int sources = int{hasValue(a)} + int{!a.from_attribute.empty()} + int{!a.from_context.empty()};
    if (sources != 1)
      ctx.error(sources == 0 ? "value" : !a.from_context.empty() ? "from_context" : "from_attribute",
                "action '" + a.action + "' needs exactly one of value, from_attribute or from_context");
    if (a.from_context.rfind("auth.", 0) == 0)
      ctx.error("from_context", "'" + a.from_context + "': authenticators here keep no attributes; use "
                                "metadata.<key> (a request header the receiver keeps with include_metadata)");
    if (hasValue(a) && !a.value.isScalar())
      ctx.error("value", std::string("value must be a scalar (string, number or bool), got ") +
                             config::ConfigNode::kindName(a.value.kind));
    return;
  }
  if (hasValue(a)) ctx.error("value", "action '" + a.action + "' takes no value");
  if (!a.from_attribute.empty()) ctx.error("from_attribute", "action '" + a.action + "' takes no from_attribute");
  if (!a.from_context.empty()) ctx.error("from_context", "action '" + a.action + "' takes no from_context");
}

void checkPattern(const ActionConfig& a, ActionKind kind, config::ValidationContext& ctx) {
  if (a.pattern.empty()) return;
  std::string err;
  if (kind != ActionKind::kExtract) {
    if (!compileRegex(a.pattern, &err)) ctx.error("pattern", err);
    return;
  }
  auto re = compileNamedRegex(a.pattern, &err);
  if (!re) ctx.error("pattern", err);
  else if (re->groups.empty())
    ctx.error("pattern", "extract pattern needs at least one named group like (?P<name>...)");
}

}  // namespace

std::optional<ActionKind> parseActionKind(const std::string& s) {
  std::string l = toLowerAscii(s);
  if (l == "insert") return ActionKind::kInsert;
  if (l == "update") return ActionKind::kUpdate;
  if (l == "upsert") return ActionKind::kUpsert;
  if (l == "delete") return ActionKind::kDelete;
  if (l == "hash") return ActionKind::kHash;
  if (l == "extract") return ActionKind::kExtract;
  if (l == "convert") return ActionKind::kConvert;
  return std::nullopt;
}

std::optional<ConvertType> parseConvertType(const std::string& s) {
  std::string l = toLowerAscii(s);
  if (l == "string") return ConvertType::kString;
  if (l == "int") return ConvertType::kInt;
  if (l == "double") return ConvertType::kDouble;
  if (l == "bool") return ConvertType::kBool;
  return std::nullopt;
}

otlp::AnyValue scalarToValue(const config::ConfigNode& n) {
  otlp::AnyValue v;
  const std::string& s = n.scalar;
  if (!n.quoted && !s.empty()) {
    std::string l = toLowerAscii(s);
    if (l == "true" || l == "false") {
      v.set_bool_value(l == "true");
      return v;
    }
    int64_t i = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
    if (ec == std::errc() && p == s.data() + s.size()) {
      v.set_int_value(i);
      return v;
    }
    char* end = nullptr;
    double d = std::strtod(s.c_str(), &end);
    bool numeric = std::isdigit(static_cast<unsigned char>(s.back())) || s.back() == '.';
    if (*end == '\0' && numeric) {
      v.set_double_value(d);
      return v;
    }
  }
  v.set_string_value(s);
  return v;
}

void ActionConfig::validate(config::ValidationContext& ctx) const {
  auto kind = parseActionKind(action);
  if (!kind) {
    ctx.error("action", action.empty() ? "action is required (insert, update, upsert, delete, hash, extract, convert)"
                                       : "unknown action " + config::quoteValue(action) +
                                             "; valid: insert, update, upsert, delete, hash, extract, convert");
    return;
  }
  checkTarget(*this, *kind, ctx);
  checkSource(*this, *kind, ctx);
  checkPattern(*this, *kind, ctx);
  if (*kind == ActionKind::kConvert) {
    if (!parseConvertType(converted_type))
      ctx.error("converted_type", "converted_type must be string, int, double or bool, got " + config::quoteValue(converted_type));
  } else if (!converted_type.empty()) {
    ctx.error("converted_type", "converted_type is only used by action 'convert'");
  }
}

void validateActions(const std::vector<ActionConfig>& actions, const char* field, bool required,
                     config::ValidationContext& ctx) {
  if (required && actions.empty()) ctx.error(field, std::string(field) + " must list at least one action");
  for (size_t i = 0; i < actions.size(); ++i) {
    auto nested = ctx.nested(std::string(field) + "[" + std::to_string(i) + "]");
    actions[i].validate(nested);
  }
}

}  // namespace proflow::attributes
