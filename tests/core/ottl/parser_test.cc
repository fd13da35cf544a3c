// The grammar: statements, conditions, literals, paths with keys, precedence, named arguments, and
// errors that point at the column inside the text.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/ottl/parser.h"

namespace proflow::ottl {
namespace {

using ::testing::HasSubstr;

ExprPtr cond(const std::string& text) {
  ExprPtr e;
  ParseError err = parseCondition(text, &e);
  EXPECT_TRUE(err.ok()) << text << ": col " << err.column << ": " << err.message;
  return e;
}

ParseError statementError(const std::string& text) {
  Statement s;
  return parseStatement(text, &s);
}

TEST(OttlParser, StatementWithWhereClause) {
  Statement s;
  ASSERT_TRUE(parseStatement(R"~(set(resource.attributes["k"]["n"], "v") where profile.period > 10)~", &s).ok());
  ASSERT_EQ(s.editor->kind, ExprKind::kCall);
  EXPECT_EQ(s.editor->name, "set");
  ASSERT_EQ(s.editor->args.size(), 2u);
  const Expr& target = *s.editor->args[0];
  EXPECT_EQ(target.kind, ExprKind::kPath);
  EXPECT_EQ(target.names, (std::vector<std::string>{"resource", "attributes"}));
  ASSERT_EQ(target.keys.size(), 2u);
  EXPECT_EQ(target.keys[1]->literal.s, "n");
  ASSERT_TRUE(s.condition);
  EXPECT_EQ(s.condition->kind, ExprKind::kCompare);
  EXPECT_EQ(s.condition->name, ">");
}

TEST(OttlParser, LiteralsOfEveryKind) {
  ExprPtr e = cond(R"~([1, -2, 1.5, -.5, true, false, nil, "a\"b\\c\n", 0x00ff, {"k": [1], "m": {}}] == nil)~");
  const auto& items = e->args[0]->args;
  ASSERT_EQ(items.size(), 10u);
  EXPECT_EQ(items[0]->literal.i, 1);
  EXPECT_EQ(items[1]->literal.i, -2);
  EXPECT_DOUBLE_EQ(items[2]->literal.d, 1.5);
  EXPECT_DOUBLE_EQ(items[3]->literal.d, -0.5);
  EXPECT_TRUE(items[4]->literal.b);
  EXPECT_EQ(items[5]->literal.kind, Value::Kind::kBool);
  EXPECT_TRUE(items[6]->literal.isNil());
  EXPECT_EQ(items[7]->literal.s, "a\"b\\c\n");
  EXPECT_EQ(items[8]->literal.s, std::string("\x00\xff", 2));
  EXPECT_EQ(items[9]->kind, ExprKind::kMap);
  EXPECT_EQ(items[9]->arg_names, (std::vector<std::string>{"k", "m"}));
}

TEST(OttlParser, PrecedenceNotAndOrAndMath) {
  // or binds loosest, then and, then not; * before +.
  ExprPtr e = cond("not a.b == 1 and c.d == 2 or x.y + 2 * 3 == 8");
  ASSERT_EQ(e->kind, ExprKind::kOr);
  EXPECT_EQ(e->args[0]->kind, ExprKind::kAnd);
  EXPECT_EQ(e->args[0]->args[0]->kind, ExprKind::kNot);
  const Expr& sum = *e->args[1]->args[0];
  ASSERT_EQ(sum.kind, ExprKind::kMath);
  EXPECT_EQ(sum.name, "+");
  EXPECT_EQ(sum.args[1]->name, "*");
  ExprPtr grouped = cond("(a.b == 1 or a.b == 2) and (1 + 2) * 3 > 4");
  EXPECT_EQ(grouped->kind, ExprKind::kAnd);
  EXPECT_EQ(grouped->args[0]->kind, ExprKind::kOr);
}

TEST(OttlParser, ConvertersWithKeysAndNamedArguments) {
  ExprPtr e = cond(R"~(Split(resource.attributes["a"], ",")[0] == "x")~");
  const Expr& call = *e->args[0];
  EXPECT_EQ(call.kind, ExprKind::kCall);
  ASSERT_EQ(call.keys.size(), 1u);
  EXPECT_EQ(call.keys[0]->literal.i, 0);
  Statement s;
  ASSERT_TRUE(parseStatement(R"~(flatten(resource.attributes, depth = 2))~", &s).ok());
  EXPECT_EQ(s.editor->arg_names, (std::vector<std::string>{"", "depth"}));
  ASSERT_TRUE(parseStatement(R"~(replace_pattern(x.y, "a", "b", SHA256, "k.%s"))~", &s).ok());
  EXPECT_EQ(s.editor->args[3]->kind, ExprKind::kName);
}

TEST(OttlParser, ErrorsPointAtTheColumn) {
  ParseError e = statementError(R"~(set(resource.attributes["k"], "v)~");
  EXPECT_THAT(e.message, HasSubstr("unterminated string"));
  EXPECT_EQ(e.column, 31);
  e = statementError(R"~(set(x.y, "a\qb"))~");
  EXPECT_THAT(e.message, HasSubstr("invalid escape \\q"));
  EXPECT_EQ(e.column, 12);
  e = statementError("set(x.y, 1");
  EXPECT_THAT(e.message, HasSubstr("expected ',' or ')'"));
  EXPECT_EQ(e.column, 11);
  e = statementError("set(x.y, 1) were x.y == 1");
  EXPECT_THAT(e.message, HasSubstr("unexpected 'were'"));
  EXPECT_EQ(e.column, 13);
  e = statementError("IsMatch(x.y, \"a\")");
  EXPECT_THAT(e.message, HasSubstr("starts with an editor call"));
  EXPECT_EQ(e.column, 1);
  e = statementError("set(x.y, depth = 1, 2)");
  EXPECT_THAT(e.message, HasSubstr("positional arguments must come before named ones"));
  e = statementError("set(x.y, 99999999999999999999)");
  EXPECT_THAT(e.message, HasSubstr("out of range"));
  e = statementError("set(x.y, 1 ! 2)");
  EXPECT_EQ(e.column, 12);
}

TEST(OttlParser, DeepNestingIsRefused) {
  std::string deep = "set(x.y, " + std::string(200, '[') + std::string(200, ']') + ")";
  EXPECT_THAT(statementError(deep).message, HasSubstr("nesting deeper than"));
  std::string parens = std::string(500, '(') + "true" + std::string(500, ')');
  ExprPtr e;
  EXPECT_THAT(parseCondition(parens, &e).message, HasSubstr("nesting deeper than"));
}

}  // namespace
}  // namespace proflow::ottl
