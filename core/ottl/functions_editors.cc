// Editors: functions that change the telemetry (names start with a lowercase letter).
#include <algorithm>
#include <limits>

#include "core/ottl/evaluator.h"
#include "core/ottl/functions.h"
#include "core/ottl/patterns.h"
#include "core/util/utf8.h"

namespace proflow::ottl {
namespace {

using Args = std::vector<ExprPtr>;

// Reads the map a map editor works on; nullopt when the target holds nothing.
std::optional<Value> targetMap(Evaluator& ev, const Expr& target) {
  Value v = ev.get(target);
  if (v.isNil()) return std::nullopt;
  if (!v.isMap()) Evaluator::fail(target, std::string("expected a map, found a ") + kindName(v.kind));
  return v;
}

std::vector<std::string> stringList(Evaluator& ev, const Expr& arg, const char* what) {
  Value v = ev.eval(arg);
  if (!v.isList()) Evaluator::fail(arg, std::string(what) + " must be a list of strings");
  std::vector<std::string> out;
  for (const auto& item : v.items) {
    if (!item.isString()) Evaluator::fail(arg, std::string(what) + " must be a list of strings");
    out.push_back(item.s);
  }
  return out;
}

int64_t nonNegativeInt(Evaluator& ev, const Expr& arg, const char* what) {
  Value v = ev.eval(arg);
  if (v.kind != Value::Kind::kInt || v.i < 0) Evaluator::fail(arg, std::string(what) + " must be an int >= 0");
  return v.i;
}

// True when every string in `v` (map keys, list and map members) is UTF-8; bytes may hold anything.
bool validText(const Value& v) {
  switch (v.kind) {
    case Value::Kind::kString: return isValidUtf8(v.s);
    case Value::Kind::kList:
    case Value::Kind::kMap:
      for (const auto& k : v.keys)
        if (!isValidUtf8(k)) return false;
      for (const auto& item : v.items)
        if (!validText(item)) return false;
      return true;
    default: return true;
  }
}

// OTLP strings must be UTF-8 and the next hop refuses a whole request holding one that is not:
// an edit that would write other bytes (a `\xff` literal, a pattern replacing bytes of a character)
// fails the statement instead, which the component's error_mode then handles.
const Value& checkedText(const Expr& at, const Value& v) {
  if (!validText(v)) Evaluator::fail(at, "the edit would write text that is not valid UTF-8");
  return v;
}
void store(Evaluator& ev, const Expr& target, Value v) {
  checkedText(target, v);
  ev.set(target, std::move(v));
}

// Keeps the entries `keep` says yes to; writes the map back only when something went.
template <class Pred>
void filterMap(Evaluator& ev, const Expr& target, Pred keep) {
  auto map = targetMap(ev, target);
  if (!map) return;
  Value out = Value::map();
  for (size_t i = 0; i < map->items.size(); ++i)
    if (keep(map->keys[i], map->items[i])) out.put(map->keys[i], std::move(map->items[i]));
  if (out.items.size() != map->items.size()) ev.set(target, std::move(out));  // only removed: still text
}

Value set(Evaluator& ev, const Expr&, const Args& a) {
  if (a[1]->kind == ExprKind::kLiteral) {  // a constant, set from where it lies
    if (!a[1]->literal.isNil()) ev.setConstant(*a[0], checkedText(*a[1], a[1]->literal));
    return Value::nil();
  }
  Value v = ev.eval(*a[1]);
  if (!v.isNil()) store(ev, *a[0], std::move(v));  // setting nil leaves the target as it is
  return Value::nil();
}

Value deleteKey(Evaluator& ev, const Expr&, const Args& a) {
  Value key = ev.eval(*a[1]);
  if (!key.isString()) Evaluator::fail(*a[1], "the key must be a string");
  if (ev.deleteListedKey(*a[0], key.s)) return Value::nil();
  filterMap(ev, *a[0], [&](const std::string& k, const Value&) { return k != key.s; });
  return Value::nil();
}

Value deleteMatchingKeys(Evaluator& ev, const Expr&, const Args& a) {
  const re2::RE2& re = *a[1]->regex;
  filterMap(ev, *a[0], [&](const std::string& k, const Value&) { return !attributes::regexSearch(re, k); });
  return Value::nil();
}

Value keepKeys(Evaluator& ev, const Expr&, const Args& a) {
  const auto keys = stringList(ev, *a[1], "keys");
  filterMap(ev, *a[0], [&](const std::string& k, const Value&) { return std::find(keys.begin(), keys.end(), k) != keys.end(); });
  return Value::nil();
}

Value keepMatchingKeys(Evaluator& ev, const Expr&, const Args& a) {
  const re2::RE2& re = *a[1]->regex;
  filterMap(ev, *a[0], [&](const std::string& k, const Value&) { return attributes::regexSearch(re, k); });
  return Value::nil();
}

// Keeps at most `limit` entries: the priority keys first, then the others in their order.
Value limit(Evaluator& ev, const Expr&, const Args& a) {
  const int64_t n = nonNegativeInt(ev, *a[1], "limit");
  const auto priority = a[2] ? stringList(ev, *a[2], "priority_keys") : std::vector<std::string>{};
  if (static_cast<int64_t>(priority.size()) > n)
    Evaluator::fail(*a[2], "more priority keys than the limit allows");
  auto map = targetMap(ev, *a[0]);
  if (!map || static_cast<int64_t>(map->items.size()) <= n) return Value::nil();
  auto prioritized = [&](const std::string& k) { return std::find(priority.begin(), priority.end(), k) != priority.end(); };
  int64_t room = n;
  for (const auto& k : map->keys) room -= prioritized(k) ? 1 : 0;
  filterMap(ev, *a[0], [&](const std::string& k, const Value&) { return prioritized(k) || room-- > 0; });
  return Value::nil();
}

Value truncateAll(Evaluator& ev, const Expr&, const Args& a) {
  const auto n = static_cast<size_t>(nonNegativeInt(ev, *a[1], "limit"));
  auto map = targetMap(ev, *a[0]);
  if (!map) return Value::nil();
  bool changed = false;
  for (auto& v : map->items)
    if (v.isString() && v.s.size() > n) {
      v.s.resize(utf8Prefix(v.s, n).size());  // never inside a character: its bytes alone are no text
      changed = true;
    }
  if (changed) store(ev, *a[0], std::move(*map));
  return Value::nil();
}

// The replacement of one match: the template expanded, then through the optional converter and
// format (`SHA256, "k8s.%s"`).
std::function<std::string(std::string)> finisher(Evaluator& ev, const Args& a, size_t fn_arg) {
  const Expr* fn = a[fn_arg].get();
  if (!fn) return [](std::string s) { return s; };
  std::string format = a[fn_arg + 1] ? a[fn_arg + 1]->literal.s : "%s";
  (void)ev;
  return [fn, format](std::string s) {
    std::string applied = toText(fn->function->apply(Value::string(std::move(s))));
    std::string out = format;
    if (auto pos = out.find("%s"); pos != std::string::npos) out.replace(pos, 2, applied);
    return out;
  };
}

std::string replacementText(Evaluator& ev, const Expr& arg) {
  Value v = ev.eval(arg);
  if (!v.isString()) Evaluator::fail(arg, std::string("the replacement must be a string, not a ") + kindName(v.kind));
  return std::move(v.s);
}

Value replacePattern(Evaluator& ev, const Expr&, const Args& a) {
  Value v = ev.get(*a[0]);
  if (!v.isString()) return Value::nil();  // only strings are replaced in
  const std::string tmpl = replacementText(ev, *a[2]);
  std::string out;
  if (replaceAll(*a[1]->regex, v.s, tmpl, finisher(ev, a, 3), &out) && out != v.s) store(ev, *a[0], Value::string(out));
  return Value::nil();
}

Value replaceAllPatterns(Evaluator& ev, const Expr&, const Args& a) {
  const bool keys = a[1]->literal.s == "key";
  const std::string tmpl = replacementText(ev, *a[3]);
  auto map = targetMap(ev, *a[0]);
  if (!map) return Value::nil();
  const auto finish = finisher(ev, a, 4);
  Value out = Value::map();
  bool changed = false;
  std::string replaced;
  for (size_t i = 0; i < map->items.size(); ++i) {
    std::string key = map->keys[i];
    Value v = std::move(map->items[i]);
    if (keys && replaceAll(*a[2]->regex, key, tmpl, finish, &replaced) && replaced != key) {
      key = replaced;
      changed = true;
    } else if (!keys && v.isString() && replaceAll(*a[2]->regex, v.s, tmpl, finish, &replaced) && replaced != v.s) {
      v.s = replaced;
      changed = true;
    }
    out.put(key, std::move(v));
  }
  if (changed) store(ev, *a[0], std::move(out));
  return Value::nil();
}

std::string globReplacement(Evaluator& ev, const Args& a) {
  std::string r = replacementText(ev, *a[2]);
  return a[3] ? finisher(ev, a, 3)(std::move(r)) : r;
}

Value replaceMatch(Evaluator& ev, const Expr&, const Args& a) {
  Value v = ev.get(*a[0]);
  if (!v.isString() || !re2::RE2::FullMatch(v.s, *a[1]->regex)) return Value::nil();
  store(ev, *a[0], Value::string(globReplacement(ev, a)));
  return Value::nil();
}

Value replaceAllMatches(Evaluator& ev, const Expr&, const Args& a) {
  auto map = targetMap(ev, *a[0]);
  if (!map) return Value::nil();
  bool changed = false;
  for (auto& v : map->items)
    if (v.isString() && re2::RE2::FullMatch(v.s, *a[1]->regex)) {
      v.s = globReplacement(ev, a);
      changed = true;
    }
  if (changed) store(ev, *a[0], std::move(*map));
  return Value::nil();
}

Value mergeMaps(Evaluator& ev, const Expr&, const Args& a) {
  Value source = ev.eval(*a[1]);
  if (source.isNil()) return Value::nil();
  if (!source.isMap()) Evaluator::fail(*a[1], std::string("the source must be a map, not a ") + kindName(source.kind));
  const std::string& strategy = a[2]->literal.s;
  Value target = targetMap(ev, *a[0]).value_or(Value::map());
  for (size_t i = 0; i < source.items.size(); ++i) {
    const bool present = target.find(source.keys[i]) != nullptr;
    if ((strategy == "insert" && !present) || (strategy == "update" && present) || strategy == "upsert")
      target.put(source.keys[i], source.items[i]);
  }
  store(ev, *a[0], std::move(target));
  return Value::nil();
}

void flattenInto(Value& out, const std::string& prefix, const Value& v, int64_t depth) {
  for (size_t i = 0; i < v.items.size(); ++i) {
    const std::string name = v.isMap() ? v.keys[i] : std::to_string(i);
    const std::string key = prefix.empty() ? name : prefix + "." + name;
    const Value& item = v.items[i];
    if ((item.isMap() || item.isList()) && depth > 0) flattenInto(out, key, item, depth - 1);
    else out.put(key, item);
  }
}

Value flatten(Evaluator& ev, const Expr&, const Args& a) {
  std::string prefix;
  if (a[1]) {
    Value p = ev.eval(*a[1]);
    if (!p.isString()) Evaluator::fail(*a[1], "the prefix must be a string");
    prefix = p.s;
  }
  const int64_t depth = a[2] ? nonNegativeInt(ev, *a[2], "depth") : std::numeric_limits<int64_t>::max();
  auto map = targetMap(ev, *a[0]);
  if (!map) return Value::nil();
  Value out = Value::map();
  flattenInto(out, prefix, *map, depth);
  if (!equal(out, *map)) store(ev, *a[0], std::move(out));
  return Value::nil();
}

std::string checkMode(const Expr& call) {
  const std::string& m = call.args[1]->literal.s;
  return m == "key" || m == "value" ? "" : "mode must be \"key\" or \"value\", got \"" + m + "\"";
}
std::string checkStrategy(const Expr& call) {
  const std::string& s = call.args[2]->literal.s;
  return s == "insert" || s == "update" || s == "upsert"
             ? ""
             : "strategy must be \"insert\", \"update\" or \"upsert\", got \"" + s + "\"";
}

const Param kTarget{"target", ParamType::kTarget};
const Param kMap{"target", ParamType::kMapTarget};
const Param kFunctionArg{"function", ParamType::kFunction, true};
const Param kFormatArg{"replacement_format", ParamType::kStringLiteral, true};

}  // namespace

const std::vector<FunctionDef>& editorDefs() {
  static const std::vector<FunctionDef> defs = {
      {"set", true, {kTarget, {"value", ParamType::kValue}}, set},
      {"delete_key", true, {kMap, {"key", ParamType::kValue}}, deleteKey},
      {"delete_matching_keys", true, {kMap, {"pattern", ParamType::kRegex}}, deleteMatchingKeys},
      {"keep_keys", true, {kMap, {"keys", ParamType::kValue}}, keepKeys},
      {"keep_matching_keys", true, {kMap, {"pattern", ParamType::kRegex}}, keepMatchingKeys},
      {"limit", true, {kMap, {"limit", ParamType::kValue}, {"priority_keys", ParamType::kValue, true}}, limit},
      {"truncate_all", true, {kMap, {"limit", ParamType::kValue}}, truncateAll},
      {"replace_pattern", true,
       {kTarget, {"regex", ParamType::kRegex}, {"replacement", ParamType::kValue}, kFunctionArg, kFormatArg},
       replacePattern},
      {"replace_all_patterns", true,
       {kMap, {"mode", ParamType::kStringLiteral}, {"regex", ParamType::kRegex}, {"replacement", ParamType::kValue},
        kFunctionArg, kFormatArg},
       replaceAllPatterns, nullptr, checkMode},
      {"replace_match", true,
       {kTarget, {"pattern", ParamType::kGlob}, {"replacement", ParamType::kValue}, kFunctionArg, kFormatArg},
       replaceMatch},
      {"replace_all_matches", true,
       {kMap, {"pattern", ParamType::kGlob}, {"replacement", ParamType::kValue}, kFunctionArg, kFormatArg},
       replaceAllMatches},
      {"merge_maps", true, {kMap, {"source", ParamType::kValue}, {"strategy", ParamType::kStringLiteral}}, mergeMaps,
       nullptr, checkStrategy},
      {"flatten", true, {kMap, {"prefix", ParamType::kValue, true}, {"depth", ParamType::kValue, true}}, flatten},
  };
  return defs;
}

const FunctionDef* findFunction(std::string_view name) {
  for (const auto* defs : {&converterDefs(), &editorDefs()})
    for (const auto& d : *defs)
      if (d.name == name) return &d;
  return nullptr;
}

std::string functionNames(bool editors) {
  std::string out;
  for (const auto& d : editors ? editorDefs() : converterDefs()) out += (out.empty() ? "" : ", ") + std::string(d.name);
  return out;
}

}  // namespace proflow::ottl
