// The editors and converters OTTL statements can call, with the parameter list the compiler checks
// calls against (arity, named arguments, literal patterns compiled at load). The supported set is
// listed in core/ottl/README.md.
#pragma once

#include <string_view>
#include <vector>

#include "core/ottl/ast.h"

namespace proflow::ottl {

class Evaluator;

enum class ParamType {
  kValue,         // any value (a getter)
  kTarget,        // a settable path
  kMapTarget,     // a settable path holding a map (attributes, cache)
  kRegex,         // a string literal: an RE2 pattern, compiled at load
  kGlob,          // a string literal: a filepath.Match-style glob, compiled at load
  kStringLiteral, // a string literal (a mode, a strategy, a format)
  kFunction,      // a converter passed by name (SHA256)
  kFrameCondition,// a condition evaluated on each frame of the sample's stack
};

struct Param {
  std::string_view name;
  ParamType type;
  bool optional = false;
};

struct FunctionDef {
  std::string_view name;
  bool editor;
  std::vector<Param> params;
  // `args` in parameter order; an absent optional argument is null.
  Value (*impl)(Evaluator& ev, const Expr& call, const std::vector<ExprPtr>& args);
  // For converters passed by name (replace_pattern(..., SHA256)): applies to one string.
  Value (*apply)(const Value& v) = nullptr;
  // Checks literal arguments at load (a strategy name, a format); returns an error or "".
  std::string (*check)(const Expr& call) = nullptr;
  // For converters giving true or false: the answer without building a value (what a condition
  // calls once per frame or per sample).
  bool (*predicate)(Evaluator& ev, const Expr& call, const std::vector<ExprPtr>& args) = nullptr;
};

const FunctionDef* findFunction(std::string_view name);
// Names of every function, for error messages.
std::string functionNames(bool editors);

// Registered by functions_converters.cc and functions_editors.cc.
const std::vector<FunctionDef>& converterDefs();
const std::vector<FunctionDef>& editorDefs();

}  // namespace proflow::ottl
