// Converters: functions that compute a value (names start with an uppercase letter).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "core/attributes/actions.h"
#include "core/ottl/evaluator.h"
#include "core/ottl/functions.h"
#include "core/util/utf8.h"

namespace proflow::ottl {
namespace {

using Args = std::vector<ExprPtr>;

// A string, or the text of a number or bool (the Collector's "string-like" arguments).
std::optional<std::string> stringLike(const Value& v) {
  switch (v.kind) {
    case Value::Kind::kString: return v.s;
    case Value::Kind::kInt:
    case Value::Kind::kDouble:
    case Value::Kind::kBool: return toText(v);
    default: return std::nullopt;
  }
}

std::string requireString(Evaluator& ev, const Expr& arg, const char* what) {
  Value v = ev.eval(arg);
  if (!v.isString()) Evaluator::fail(arg, std::string(what) + " must be a string, not a " + kindName(v.kind));
  return std::move(v.s);
}

int64_t requireInt(Evaluator& ev, const Expr& arg, const char* what) {
  Value v = ev.eval(arg);
  if (v.kind != Value::Kind::kInt) Evaluator::fail(arg, std::string(what) + " must be an int, not a " + kindName(v.kind));
  return v.i;
}

Value concat(Evaluator& ev, const Expr&, const Args& a) {
  Value list = ev.eval(*a[0]);
  if (!list.isList()) Evaluator::fail(*a[0], "Concat takes a list of values");
  const std::string delimiter = requireString(ev, *a[1], "the delimiter");
  std::string out;
  for (size_t i = 0; i < list.items.size(); ++i) {
    if (i) out += delimiter;
    out += toText(list.items[i]);
  }
  return Value::string(std::move(out));
}

Value split(Evaluator& ev, const Expr&, const Args& a) {
  Value target = ev.eval(*a[0]);
  if (target.isNil()) return target;
  if (!target.isString()) Evaluator::fail(*a[0], std::string("Split takes a string, not a ") + kindName(target.kind));
  const std::string delimiter = requireString(ev, *a[1], "the delimiter");
  Value out = Value::list({});
  if (delimiter.empty()) {  // one item per character: a byte of a multi-byte one is no text
    for (size_t i = 0; i < target.s.size();) {
      const size_t n = utf8CharLength(target.s, i);
      out.items.push_back(Value::string(target.s.substr(i, n)));
      i += n;
    }
    return out;
  }
  size_t pos = 0;
  for (;;) {
    const size_t next = target.s.find(delimiter, pos);
    out.items.push_back(Value::string(target.s.substr(pos, next == std::string::npos ? std::string::npos : next - pos)));
    if (next == std::string::npos) break;
    pos = next + delimiter.size();
  }
  return out;
}

bool isMatchTest(Evaluator& ev, const Expr&, const Args& a) {
  if (a[0]->kind == ExprKind::kPath && isFrameField(a[0]->path.field) && a[0]->path.field != Field::kFrameLine &&
      a[0]->path.field != Field::kFrameAddress) {
    const auto name = ev.frameString(*a[0]);  // a frame's name, matched where it lies: no copy per frame
    return name && attributes::regexSearch(*a[1]->regex, *name);
  }
  auto text = stringLike(ev.eval(*a[0]));
  return text && attributes::regexSearch(*a[1]->regex, *text);
}
Value isMatch(Evaluator& ev, const Expr& call, const Args& a) { return Value::boolean(isMatchTest(ev, call, a)); }

Value sha256Of(const Value& v) {
  auto text = stringLike(v);
  if (!text) return Value::nil();
  return Value::string(attributes::sha256Hex(*text));
}
Value sha256(Evaluator& ev, const Expr&, const Args& a) { return sha256Of(ev.eval(*a[0])); }

Value toInt(Evaluator& ev, const Expr&, const Args& a) {
  Value v = ev.eval(*a[0]);
  switch (v.kind) {
    case Value::Kind::kInt: return v;
    case Value::Kind::kDouble:
      if (!std::isfinite(v.d) || std::fabs(v.d) >= 9.2e18) return Value::nil();
      return Value::integer(static_cast<int64_t>(v.d));
    case Value::Kind::kBool: return Value::integer(v.b ? 1 : 0);
    case Value::Kind::kString: {
      int64_t n = 0;
      const char* end = v.s.data() + v.s.size();
      auto [p, ec] = std::from_chars(v.s.data(), end, n);
      if (ec == std::errc() && p == end && !v.s.empty()) return Value::integer(n);
      return Value::nil();
    }
    default: return Value::nil();
  }
}

Value toDouble(Evaluator& ev, const Expr&, const Args& a) {
  Value v = ev.eval(*a[0]);
  switch (v.kind) {
    case Value::Kind::kInt: return Value::floating(static_cast<double>(v.i));
    case Value::Kind::kDouble: return v;
    case Value::Kind::kBool: return Value::floating(v.b ? 1 : 0);
    case Value::Kind::kString: {
      char* end = nullptr;
      const double d = std::strtod(v.s.c_str(), &end);
      if (v.s.empty() || end != v.s.c_str() + v.s.size()) return Value::nil();
      return Value::floating(d);
    }
    default: return Value::nil();
  }
}

Value toString(Evaluator& ev, const Expr&, const Args& a) {
  Value v = ev.eval(*a[0]);
  return v.isNil() ? v : Value::string(toText(v));
}

template <Value::Kind K>
Value isKind(Evaluator& ev, const Expr&, const Args& a) {
  return Value::boolean(ev.eval(*a[0]).kind == K);
}

// Characters of `s` (what Substring counts in).
size_t characters(std::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); i += utf8CharLength(s, i)) ++n;
  return n;
}

Value len(Evaluator& ev, const Expr&, const Args& a) {
  Value v = ev.eval(*a[0]);
  switch (v.kind) {
    case Value::Kind::kString: return Value::integer(static_cast<int64_t>(characters(v.s)));
    case Value::Kind::kBytes: return Value::integer(static_cast<int64_t>(v.s.size()));
    case Value::Kind::kList:
    case Value::Kind::kMap: return Value::integer(static_cast<int64_t>(v.items.size()));
    default: Evaluator::fail(*a[0], std::string("Len takes a string, list or map, not a ") + kindName(v.kind));
  }
}

template <int (*Fn)(int)>
Value changeCase(Evaluator& ev, const Expr&, const Args& a) {
  Value v = ev.eval(*a[0]);
  if (v.isNil()) return v;
  if (!v.isString()) Evaluator::fail(*a[0], std::string("takes a string, not a ") + kindName(v.kind));
  for (char& c : v.s) c = static_cast<char>(Fn(static_cast<unsigned char>(c)));
  return v;
}

Value substring(Evaluator& ev, const Expr&, const Args& a) {
  Value v = ev.eval(*a[0]);
  if (!v.isString()) Evaluator::fail(*a[0], std::string("Substring takes a string, not a ") + kindName(v.kind));
  const int64_t start = requireInt(ev, *a[1], "start"), length = requireInt(ev, *a[2], "length");
  // Counted in characters, so a cut never falls inside one (its bytes alone are no text).
  const size_t count = characters(v.s);
  if (start < 0 || length < 0 || static_cast<uint64_t>(start) + static_cast<uint64_t>(length) > count)
    Evaluator::fail(*a[1], "start and length must lie inside the string (" + std::to_string(count) + " characters)");
  size_t from = 0;
  for (int64_t c = 0; c < start; ++c) from += utf8CharLength(v.s, from);
  size_t to = from;
  for (int64_t c = 0; c < length; ++c) to += utf8CharLength(v.s, to);
  return Value::string(v.s.substr(from, to - from));
}

template <bool Prefix>
Value hasAffix(Evaluator& ev, const Expr&, const Args& a) {
  Value v = ev.eval(*a[0]);
  if (!v.isString()) return Value::boolean(false);
  const std::string affix = requireString(ev, *a[1], Prefix ? "the prefix" : "the suffix");
  return Value::boolean(Prefix ? v.s.starts_with(affix) : v.s.ends_with(affix));
}

Value anyFrame(Evaluator& ev, const Expr& call, const Args& a) { return Value::boolean(ev.anyFrame(call, *a[0])); }

const Param kValueParam{"target", ParamType::kValue};

}  // namespace

const std::vector<FunctionDef>& converterDefs() {
  static const std::vector<FunctionDef> defs = {
      {"Concat", false, {{"vals", ParamType::kValue}, {"delimiter", ParamType::kValue}}, concat},
      {"Split", false, {kValueParam, {"delimiter", ParamType::kValue}}, split},
      {"IsMatch", false, {kValueParam, {"pattern", ParamType::kRegex}}, isMatch, nullptr, nullptr, isMatchTest},
      {"SHA256", false, {{"value", ParamType::kValue}}, sha256, sha256Of},
      {"Int", false, {{"value", ParamType::kValue}}, toInt},
      {"Double", false, {{"value", ParamType::kValue}}, toDouble},
      {"String", false, {{"value", ParamType::kValue}}, toString},
      {"IsString", false, {{"value", ParamType::kValue}}, isKind<Value::Kind::kString>},
      {"IsInt", false, {{"value", ParamType::kValue}}, isKind<Value::Kind::kInt>},
      {"IsDouble", false, {{"value", ParamType::kValue}}, isKind<Value::Kind::kDouble>},
      {"IsBool", false, {{"value", ParamType::kValue}}, isKind<Value::Kind::kBool>},
      {"IsMap", false, {{"value", ParamType::kValue}}, isKind<Value::Kind::kMap>},
      {"IsList", false, {{"value", ParamType::kValue}}, isKind<Value::Kind::kList>},
      {"Len", false, {kValueParam}, len},
      {"ToLowerCase", false, {kValueParam}, changeCase<std::tolower>},
      {"ToUpperCase", false, {kValueParam}, changeCase<std::toupper>},
      {"Substring", false, {kValueParam, {"start", ParamType::kValue}, {"length", ParamType::kValue}}, substring},
      {"HasPrefix", false, {kValueParam, {"prefix", ParamType::kValue}}, hasAffix<true>},
      {"HasSuffix", false, {kValueParam, {"suffix", ParamType::kValue}}, hasAffix<false>},
      {"AnyFrame", false, {{"condition", ParamType::kFrameCondition}}, anyFrame},
  };
  return defs;
}

}  // namespace proflow::ottl
