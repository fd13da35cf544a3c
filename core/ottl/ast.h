// The syntax tree of an OTTL statement or condition. The parser fills the syntax; the compiler
// (compiler.h) then binds every path to a field of a profile context and every call to a function,
// so evaluation does no name lookups.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/attributes/named_regex.h"
#include "core/ottl/paths.h"
#include "core/ottl/value.h"

namespace proflow::ottl {

struct FunctionDef;
struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

enum class ExprKind {
  kLiteral,  // literal (also an enum once bound)
  kPath,     // names[.names...][keys...]
  kList,     // [args...]
  kMap,      // {arg_names[i]: args[i]}
  kCall,     // name(args...)[keys...]; arg_names holds "" or the name of a named argument
  kName,     // an Uppercase name without parentheses: an enum, or a converter passed as an argument
  kMath,     // args[0] op args[1], op one of + - * /
  kNegate,   // -args[0]
  kCompare,  // args[0] op args[1], op one of == != < <= > >=
  kAnd,
  kOr,
  kNot,
};

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  int column = 1;  // 1-based column inside the statement
  Value literal;
  std::vector<std::string> names;
  std::vector<ExprPtr> keys;
  std::string name;  // function / enum name, or the operator
  std::vector<ExprPtr> args;
  std::vector<std::string> arg_names;

  // Bound by the compiler.
  PathRef path;                             // kPath
  const FunctionDef* function = nullptr;    // kCall, and kName when it names a converter
  attributes::Regex regex;                  // a pattern argument (regex or glob), compiled once
  int memo_slot = -1;                       // AnyFrame on frame fields only: per-stack memo of its answer
  bool memo_by_function = false;            // ... and on the function's fields only: also per function
};

struct Statement {
  ExprPtr editor;     // kCall of an editor
  ExprPtr condition;  // null: always
};

}  // namespace proflow::ottl
