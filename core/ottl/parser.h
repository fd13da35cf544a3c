// Parses OTTL text into a syntax tree (ast.h). The grammar is the Collector's (pkg/ottl LANGUAGE.md):
//
//   statement  := editor '(' args ')' [ 'where' condition ]
//   condition  := or-expression over comparisons, `and`, `or`, `not`, parentheses
//   value      := literal | path | list | map | Converter(args)[keys] | ENUM | math expression
//
// Literals: "strings" with Go escapes, ints, floats (leading digit optional), true/false, nil,
// 0x bytes. Paths: lowercase names joined by dots, then ["key"] / [0] / [expression] keys.
// Arguments may be named (`depth = 2`) after the positional ones.
#pragma once

#include <string>
#include <string_view>

#include "core/ottl/ast.h"

namespace proflow::ottl {

struct ParseError {
  std::string message;
  int column = 0;  // 1-based, inside the text
  bool ok() const { return message.empty(); }
};

// A statement: an editor call with an optional where clause.
ParseError parseStatement(std::string_view text, Statement* out);
// A condition on its own (a `conditions:` entry, a filter condition).
ParseError parseCondition(std::string_view text, ExprPtr* out);

}  // namespace proflow::ottl
