// Splits one OTTL statement or condition into tokens, each with its 1-based column in the text so
// errors can point inside the statement.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace proflow::ottl {

enum class TokenKind {
  kIdent,    // names, keywords (where, and, or, not, true, false, nil) and enums
  kString,   // text holds the unquoted value
  kInt,      // text holds the digits
  kFloat,    // text holds the literal
  kBytes,    // text holds the decoded bytes of 0x...
  kLParen, kRParen, kLBracket, kRBracket, kLBrace, kRBrace,
  kComma, kDot, kColon, kAssign,  // `=` of a named argument
  kCompare,                       // == != < <= > >=
  kPlus, kMinus, kStar, kSlash,
  kEnd,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  int column = 1;
};

struct LexResult {
  std::vector<Token> tokens;  // ends with kEnd
  std::string error;          // non-empty: what is wrong at error_column
  int error_column = 0;
};

LexResult tokenize(std::string_view text);

}  // namespace proflow::ottl
