#include "core/ottl/compiler.h"

#include <array>

#include "core/ottl/functions.h"
#include "core/ottl/patterns.h"

namespace proflow::ottl {
namespace {

struct EnumEntry {
  std::string_view name;
  int64_t value;
};
constexpr std::array kEnums = {
    EnumEntry{"AGGREGATION_TEMPORALITY_UNSPECIFIED", 0},
    EnumEntry{"AGGREGATION_TEMPORALITY_DELTA", 1},
    EnumEntry{"AGGREGATION_TEMPORALITY_CUMULATIVE", 2},
};

bool givesBool(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kCompare:
    case ExprKind::kAnd:
    case ExprKind::kOr:
    case ExprKind::kNot:
    case ExprKind::kCall: return true;
    case ExprKind::kLiteral: return e.literal.kind == Value::Kind::kBool;
    default: return false;
  }
}

// True when the expression reads the visited frame's fields only, so its answer depends on the frame
// alone (the leaf frame, `sample.leaf.*`, differs between stacks sharing a frame).
bool frameOnly(const Expr& e) {
  if (e.kind == ExprKind::kPath && (!isFrameField(e.path.field) || e.path.leaf)) return false;
  for (const auto& a : e.args)
    if (a && !frameOnly(*a)) return false;
  for (const auto& k : e.keys)
    if (!frameOnly(*k)) return false;
  return true;
}

// True when the expression reads only the frame's function fields (name, system name, file), so
// its answer is the same for every frame of one function.
bool functionOnly(const Expr& e) {
  if (e.kind == ExprKind::kPath && (e.path.leaf || (e.path.field != Field::kFrameFunction &&
                                                    e.path.field != Field::kFrameSystemName &&
                                                    e.path.field != Field::kFrameFilename)))
    return false;
  for (const auto& a : e.args)
    if (a && !functionOnly(*a)) return false;
  for (const auto& k : e.keys)
    if (!functionOnly(*k)) return false;
  return true;
}

std::string paramList(const FunctionDef& f) {
  std::string out;
  for (const auto& p : f.params) out += (out.empty() ? "" : ", ") + std::string(p.name) + (p.optional ? "?" : "");
  return out;
}

}  // namespace

void Compiler::fail(const Expr& at, std::string message) {
  if (error_.ok()) error_ = {std::move(message), at.column};
}

ParseError Compiler::bindStatement(Statement& s) {
  bindCall(*s.editor, false, true);
  if (s.condition) bindCondition(*s.condition, false);
  return error_;
}

ParseError Compiler::bindCondition(Expr& e) {
  bindCondition(e, false);
  return error_;
}

void Compiler::bindCondition(Expr& e, bool in_frame) {
  if (!givesBool(e)) {
    fail(e, "expected a condition (a comparison, true/false, a converter such as IsMatch, joined by and/or/not)");
    return;
  }
  if (e.kind == ExprKind::kAnd || e.kind == ExprKind::kOr || e.kind == ExprKind::kNot) {
    for (auto& a : e.args) bindCondition(*a, in_frame);
    return;
  }
  bind(e, in_frame);
}

void Compiler::bind(Expr& e, bool in_frame) {
  if (!error_.ok()) return;
  switch (e.kind) {
    case ExprKind::kPath: {
      std::string error;
      auto p = resolvePath(e.names, context_, in_frame, &error);
      if (!p) return fail(e, error);
      if (!e.keys.empty() && !p->is_map && p->field != Field::kSampleValues && p->field != Field::kSampleTimestamps)
        return fail(e, "this path holds no map or list to index");
      if (context_ && p->level > *context_)
        return fail(e, std::string("this path is at the ") + contextName(p->level) + " level; statements of the " +
                           contextName(*context_) + " context cannot read it");
      if (p->level > deepest_) deepest_ = p->level;
      e.path = *p;
      for (auto& k : e.keys) bind(*k, in_frame);
      return;
    }
    case ExprKind::kCall: return bindCall(e, in_frame, false);
    case ExprKind::kName: {
      for (const auto& en : kEnums)
        if (en.name == e.name) {
          e.kind = ExprKind::kLiteral;
          e.literal = Value::integer(en.value);
          return;
        }
      if (findFunction(e.name)) return fail(e, "'" + e.name + "' is a converter: call it with parentheses");
      return fail(e, "unknown enum or converter '" + e.name + "'");
    }
    case ExprKind::kAnd:
    case ExprKind::kOr:
    case ExprKind::kNot: return bindCondition(e, in_frame);
    default:
      for (auto& a : e.args) bind(*a, in_frame);
      return;
  }
}

void Compiler::bindCall(Expr& e, bool in_frame, bool statement_root) {
  const FunctionDef* f = findFunction(e.name);
  if (!f)
    return fail(e, "unknown " + std::string(statement_root ? "editor" : "converter") + " '" + e.name +
                       "'; supported: " + functionNames(statement_root));
  if (f->editor != statement_root)
    return fail(e, statement_root ? "'" + e.name + "' is a converter; a statement calls an editor"
                                  : "'" + e.name + "' is an editor; it cannot give a value");
  e.function = f;
  std::vector<ExprPtr> ordered(f->params.size());
  for (size_t i = 0; i < e.args.size(); ++i) {
    size_t slot = i;
    if (!e.arg_names[i].empty()) {
      slot = f->params.size();
      for (size_t p = 0; p < f->params.size(); ++p)
        if (f->params[p].name == e.arg_names[i]) slot = p;
      if (slot == f->params.size())
        return fail(*e.args[i], e.name + " has no argument named '" + e.arg_names[i] + "'; it takes (" + paramList(*f) + ")");
    }
    if (slot >= f->params.size())
      return fail(*e.args[i], e.name + " takes at most " + std::to_string(f->params.size()) + " arguments (" +
                                  paramList(*f) + ")");
    if (ordered[slot]) return fail(*e.args[i], "argument '" + std::string(f->params[slot].name) + "' given twice");
    ordered[slot] = std::move(e.args[i]);
  }
  for (size_t p = 0; p < f->params.size(); ++p)
    if (!ordered[p] && !f->params[p].optional)
      return fail(e, e.name + " needs its argument '" + std::string(f->params[p].name) + "' (" + paramList(*f) + ")");
  e.args = std::move(ordered);
  e.arg_names.clear();
  for (size_t p = 0; p < f->params.size() && error_.ok(); ++p)
    if (e.args[p]) bindArgument(e, f->params[p], *e.args[p], in_frame);
  for (auto& k : e.keys) bind(*k, in_frame);
  if (error_.ok() && f->check) {
    std::string problem = f->check(e);
    if (!problem.empty()) fail(e, problem);
  }
}

void Compiler::bindArgument(Expr& call, const Param& param, Expr& arg, bool in_frame) {
  const std::string what = call.name + "'s argument '" + std::string(param.name) + "'";
  switch (param.type) {
    case ParamType::kValue: return bind(arg, in_frame);
    case ParamType::kTarget:
    case ParamType::kMapTarget:
      if (arg.kind != ExprKind::kPath) return fail(arg, what + " must be a path such as resource.attributes[\"key\"]");
      bind(arg, in_frame);
      if (!error_.ok()) return;
      if (!arg.path.settable) return fail(arg, what + ": this path cannot be set");
      if (param.type == ParamType::kMapTarget && !arg.path.is_map)
        return fail(arg, what + " must be a map such as resource.attributes");
      if (!arg.keys.empty() && !arg.path.is_map) return fail(arg, what + ": only maps can be set by key");
      return;
    case ParamType::kRegex:
    case ParamType::kGlob:
    case ParamType::kStringLiteral: {
      if (arg.kind != ExprKind::kLiteral || !arg.literal.isString()) return fail(arg, what + " must be a string literal");
      if (param.type == ParamType::kStringLiteral) {
        if (param.name == "replacement_format" && arg.literal.s.find("%s") == std::string::npos)
          return fail(arg, what + " must contain %s");
        return;
      }
      std::string error;
      arg.regex = param.type == ParamType::kRegex ? attributes::compileRegex(arg.literal.s, &error)
                                                 : compileGlob(arg.literal.s, &error);
      if (!arg.regex) return fail(arg, "invalid " + std::string(param.type == ParamType::kRegex ? "regex" : "glob") +
                                           " '" + arg.literal.s + "': " + error);
      return;
    }
    case ParamType::kFunction: {
      const FunctionDef* f = arg.kind == ExprKind::kName ? findFunction(arg.name) : nullptr;
      if (!f || !f->apply) return fail(arg, what + " must name a converter of one string, such as SHA256");
      arg.function = f;
      return;
    }
    case ParamType::kFrameCondition: {
      if (context_ && *context_ != ContextKind::kSample)
        return fail(call, "AnyFrame looks at a sample's stack: use it in the sample context");
      deepest_ = ContextKind::kSample;
      bindCondition(arg, true);
      if (error_.ok() && frameOnly(arg)) {
        call.memo_slot = memo_slots_++;
        call.memo_by_function = functionOnly(arg);
      }
      return;
    }
  }
}

}  // namespace proflow::ottl
