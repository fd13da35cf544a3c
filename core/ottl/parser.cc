#include "core/ottl/parser.h"

#include <cctype>
#include <charconv>
#include <cstdlib>

#include "core/ottl/lexer.h"

namespace proflow::ottl {
namespace {

// Bounds the recursion of nested parentheses, lists, maps and calls a statement can make.
constexpr int kMaxDepth = 64;

bool isUpper(const std::string& s) { return !s.empty() && std::isupper(static_cast<unsigned char>(s[0])); }
bool isKeyword(const std::string& s) {
  return s == "where" || s == "and" || s == "or" || s == "not" || s == "true" || s == "false" || s == "nil";
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : t_(std::move(tokens)) {}

  ParseError statement(Statement* out) {
    const Token& first = peek();
    if (first.kind != TokenKind::kIdent || isUpper(first.text) || isKeyword(first.text) ||
        peek(1).kind != TokenKind::kLParen) {
      fail(first, "a statement starts with an editor call such as set(...) or delete_key(...)");
      return error_;
    }
    out->editor = call();
    if (!error_.ok()) return error_;
    if (peek().kind == TokenKind::kIdent && peek().text == "where") {
      next();
      out->condition = orExpr();
    }
    expectEnd();
    return error_;
  }

  ParseError condition(ExprPtr* out) {
    *out = orExpr();
    expectEnd();
    return error_;
  }

 private:
  const Token& peek(size_t ahead = 0) const { return t_[std::min(pos_ + ahead, t_.size() - 1)]; }
  const Token& next() { return t_[pos_ < t_.size() - 1 ? pos_++ : pos_]; }
  bool failed() const { return !error_.ok(); }

  ExprPtr fail(const Token& at, std::string message) {
    if (error_.ok()) error_ = {std::move(message), at.column};
    return nullptr;
  }
  static std::string describe(const Token& t) {
    switch (t.kind) {
      case TokenKind::kEnd: return "the end";
      case TokenKind::kString: return "a string";
      case TokenKind::kInt:
      case TokenKind::kFloat: return "'" + t.text + "'";
      case TokenKind::kIdent: return "'" + t.text + "'";
      case TokenKind::kCompare: return "'" + t.text + "'";
      default: return "this token";
    }
  }
  bool expect(TokenKind k, const char* what) {
    if (peek().kind == k) {
      next();
      return true;
    }
    fail(peek(), std::string("expected ") + what + ", found " + describe(peek()));
    return false;
  }
  void expectEnd() {
    if (!failed() && peek().kind != TokenKind::kEnd)
      fail(peek(), "unexpected " + describe(peek()) + " after a complete expression");
  }
  ExprPtr node(ExprKind k, int column) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->column = column;
    return e;
  }
  bool enter(const Token& at) {
    if (++depth_ <= kMaxDepth) return true;
    fail(at, "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    return false;
  }

  ExprPtr orExpr() {
    if (!enter(peek())) return nullptr;
    ExprPtr left = andExpr();
    while (!failed() && peek().kind == TokenKind::kIdent && peek().text == "or") {
      auto e = node(ExprKind::kOr, next().column);
      e->args.push_back(std::move(left));
      e->args.push_back(andExpr());
      left = std::move(e);
    }
    --depth_;
    return left;
  }
  ExprPtr andExpr() {
    ExprPtr left = notExpr();
    while (!failed() && peek().kind == TokenKind::kIdent && peek().text == "and") {
      auto e = node(ExprKind::kAnd, next().column);
      e->args.push_back(std::move(left));
      e->args.push_back(notExpr());
      left = std::move(e);
    }
    return left;
  }
  ExprPtr notExpr() {
    if (peek().kind == TokenKind::kIdent && peek().text == "not") {
      if (!enter(peek())) return nullptr;
      auto e = node(ExprKind::kNot, next().column);
      e->args.push_back(notExpr());
      --depth_;
      return e;
    }
    return comparison();
  }
  ExprPtr comparison() {
    ExprPtr left = additive();
    if (failed() || peek().kind != TokenKind::kCompare) return left;
    const Token& op = next();
    auto e = node(ExprKind::kCompare, op.column);
    e->name = op.text;
    e->args.push_back(std::move(left));
    e->args.push_back(additive());
    return e;
  }
  ExprPtr additive() {
    ExprPtr left = multiplicative();
    while (!failed() && (peek().kind == TokenKind::kPlus || peek().kind == TokenKind::kMinus)) {
      const Token& op = next();
      auto e = node(ExprKind::kMath, op.column);
      e->name = op.kind == TokenKind::kPlus ? "+" : "-";
      e->args.push_back(std::move(left));
      e->args.push_back(multiplicative());
      left = std::move(e);
    }
    return left;
  }
  ExprPtr multiplicative() {
    ExprPtr left = unary();
    while (!failed() && (peek().kind == TokenKind::kStar || peek().kind == TokenKind::kSlash)) {
      const Token& op = next();
      auto e = node(ExprKind::kMath, op.column);
      e->name = op.kind == TokenKind::kStar ? "*" : "/";
      e->args.push_back(std::move(left));
      e->args.push_back(unary());
      left = std::move(e);
    }
    return left;
  }
  ExprPtr unary() {
    if (peek().kind == TokenKind::kPlus || peek().kind == TokenKind::kMinus) {
      const Token& sign = next();
      const bool minus = sign.kind == TokenKind::kMinus;
      if (peek().kind == TokenKind::kInt || peek().kind == TokenKind::kFloat) return number(next(), minus, sign.column);
      if (!enter(sign)) return nullptr;
      ExprPtr operand = unary();
      --depth_;
      if (!minus) return operand;
      auto e = node(ExprKind::kNegate, sign.column);
      e->args.push_back(std::move(operand));
      return e;
    }
    return primary();
  }

  ExprPtr number(const Token& t, bool minus, int column) {
    auto e = node(ExprKind::kLiteral, column);
    const std::string text = (minus ? "-" : "") + t.text;
    if (t.kind == TokenKind::kInt) {
      int64_t v = 0;
      auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || p != text.data() + text.size()) return fail(t, "integer " + text + " is out of range");
      e->literal = Value::integer(v);
    } else {
      e->literal = Value::floating(std::strtod(text.c_str(), nullptr));
    }
    return e;
  }

  ExprPtr primary() {
    const Token& t = peek();
    switch (t.kind) {
      case TokenKind::kString: {
        auto e = node(ExprKind::kLiteral, t.column);
        e->literal = Value::string(next().text);
        return e;
      }
      case TokenKind::kBytes: {
        auto e = node(ExprKind::kLiteral, t.column);
        e->literal = Value::bytes(next().text);
        return e;
      }
      case TokenKind::kInt:
      case TokenKind::kFloat: return number(next(), false, t.column);
      case TokenKind::kLParen: {
        next();
        if (!enter(t)) return nullptr;
        ExprPtr inner = orExpr();
        --depth_;
        expect(TokenKind::kRParen, "')'");
        return inner;
      }
      case TokenKind::kLBracket: return list();
      case TokenKind::kLBrace: return map();
      case TokenKind::kIdent: return identifier();
      default: return fail(t, "expected a value, found " + describe(t));
    }
  }

  ExprPtr identifier() {
    const Token& t = peek();
    if (t.text == "true" || t.text == "false") {
      auto e = node(ExprKind::kLiteral, next().column);
      e->literal = Value::boolean(t.text == "true");
      return e;
    }
    if (t.text == "nil") {
      next();
      return node(ExprKind::kLiteral, t.column);
    }
    if (isKeyword(t.text)) return fail(t, "expected a value, found the keyword '" + t.text + "'");
    if (peek(1).kind == TokenKind::kLParen) {
      if (!isUpper(t.text))
        return fail(t, "'" + t.text + "' is an editor; only converters (names starting with an uppercase letter) "
                       "give values");
      return call();
    }
    if (isUpper(t.text)) {
      auto e = node(ExprKind::kName, next().column);
      e->name = t.text;
      return e;
    }
    return path();
  }

  ExprPtr path() {
    auto e = node(ExprKind::kPath, peek().column);
    e->names.push_back(next().text);
    while (peek().kind == TokenKind::kDot) {
      next();
      if (peek().kind != TokenKind::kIdent) return fail(peek(), "expected a name after '.'");
      e->names.push_back(next().text);
    }
    keys(*e);
    return e;
  }

  void keys(Expr& e) {
    while (!failed() && peek().kind == TokenKind::kLBracket) {
      const Token& open = next();
      if (!enter(open)) return;
      e.keys.push_back(additive());
      --depth_;
      expect(TokenKind::kRBracket, "']'");
    }
  }

  ExprPtr call() {
    const Token& name = next();
    auto e = node(ExprKind::kCall, name.column);
    e->name = name.text;
    if (!enter(name)) return nullptr;
    next();  // '('
    bool named = false;
    while (!failed() && peek().kind != TokenKind::kRParen) {
      if (!e->args.empty() && !expect(TokenKind::kComma, "',' or ')'")) break;
      std::string arg_name;
      if (peek().kind == TokenKind::kIdent && peek(1).kind == TokenKind::kAssign) {
        arg_name = next().text;
        next();
        named = true;
      } else if (named) {
        fail(peek(), "positional arguments must come before named ones");
        break;
      }
      e->arg_names.push_back(std::move(arg_name));
      e->args.push_back(orExpr());
    }
    --depth_;
    expect(TokenKind::kRParen, "')'");
    keys(*e);
    return e;
  }

  ExprPtr list() {
    const Token& open = next();
    auto e = node(ExprKind::kList, open.column);
    if (!enter(open)) return nullptr;
    while (!failed() && peek().kind != TokenKind::kRBracket) {
      if (!e->args.empty() && !expect(TokenKind::kComma, "',' or ']'")) break;
      e->args.push_back(orExpr());
    }
    --depth_;
    expect(TokenKind::kRBracket, "']'");
    return e;
  }

  ExprPtr map() {
    const Token& open = next();
    auto e = node(ExprKind::kMap, open.column);
    if (!enter(open)) return nullptr;
    while (!failed() && peek().kind != TokenKind::kRBrace) {
      if (!e->args.empty() && !expect(TokenKind::kComma, "',' or '}'")) break;
      if (peek().kind != TokenKind::kString) {
        fail(peek(), "map keys are strings");
        break;
      }
      e->arg_names.push_back(next().text);
      if (!expect(TokenKind::kColon, "':'")) break;
      e->args.push_back(orExpr());
    }
    --depth_;
    expect(TokenKind::kRBrace, "'}'");
    return e;
  }

  std::vector<Token> t_;
  size_t pos_ = 0;
  int depth_ = 0;
  ParseError error_;
};

}  // namespace

ParseError parseStatement(std::string_view text, Statement* out) {
  LexResult lex = tokenize(text);
  if (!lex.error.empty()) return {lex.error, lex.error_column};
  return Parser(std::move(lex.tokens)).statement(out);
}

ParseError parseCondition(std::string_view text, ExprPtr* out) {
  LexResult lex = tokenize(text);
  if (!lex.error.empty()) return {lex.error, lex.error_column};
  return Parser(std::move(lex.tokens)).condition(out);
}

}  // namespace proflow::ottl
