// Binds parsed OTTL to the profile contexts: paths to fields, calls to functions (arguments checked
// and put in parameter order, patterns compiled), enums to their values. Every error names the
// column inside the statement it comes from.
#pragma once

#include <optional>
#include <string>

#include "core/ottl/ast.h"
#include "core/ottl/functions.h"
#include "core/ottl/parser.h"
#include "core/ottl/paths.h"

namespace proflow::ottl {

class Compiler {
 public:
  // `context`: the group's context when the configuration names it; nullopt to infer it from the
  // paths (the deepest level any path reaches).
  explicit Compiler(std::optional<ContextKind> context) : context_(context) {}

  ParseError bindStatement(Statement& s);
  ParseError bindCondition(Expr& e);

  // The deepest level the bound paths reach (resource when none).
  ContextKind deepest() const { return deepest_; }
  int memoSlots() const { return memo_slots_; }

 private:
  void bind(Expr& e, bool in_frame);
  void bindCondition(Expr& e, bool in_frame);
  void bindCall(Expr& e, bool in_frame, bool statement_root);
  void bindArgument(Expr& call, const Param& param, Expr& arg, bool in_frame);
  void fail(const Expr& at, std::string message);

  std::optional<ContextKind> context_;
  ContextKind deepest_ = ContextKind::kResource;
  int memo_slots_ = 0;
  ParseError error_;
};

}  // namespace proflow::ottl
