#include "core/ottl/lexer.h"

#include <cctype>

#include "core/util/hex.h"

namespace proflow::ottl {
namespace {

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool digit(char c) { return c >= '0' && c <= '9'; }

void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// A double-quoted string with Go's escapes (the statement language's string literals are Go's).
// Returns the index after the closing quote, or npos with `error` set.
size_t readString(std::string_view t, size_t i, std::string& out, std::string& error, size_t& error_at) {
  ++i;  // opening quote
  while (i < t.size()) {
    char c = t[i];
    if (c == '"') return i + 1;
    if (c != '\\') {
      out += c;
      ++i;
      continue;
    }
    error_at = i;
    if (++i >= t.size()) break;
    char e = t[i++];
    switch (e) {
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '\\': out += '\\'; break;
      case '"': out += '"'; break;
      case '\'': out += '\''; break;
      case 'x':
      case 'u':
      case 'U': {
        const size_t n = e == 'x' ? 2 : (e == 'u' ? 4 : 8);
        uint32_t cp = 0;
        for (size_t k = 0; k < n; ++k) {
          int h = i + k < t.size() ? hexDigitValue(t[i + k]) : -1;
          if (h < 0) {
            error = std::string("invalid \\") + e + " escape in string";
            return std::string_view::npos;
          }
          cp = cp * 16 + static_cast<uint32_t>(h);
        }
        i += n;
        if (e == 'x') out += static_cast<char>(cp);
        else appendUtf8(out, cp);
        break;
      }
      default:
        if (e >= '0' && e <= '7' && i + 1 < t.size() && t[i] >= '0' && t[i] <= '7' && t[i + 1] >= '0' && t[i + 1] <= '7') {
          out += static_cast<char>((e - '0') * 64 + (t[i] - '0') * 8 + (t[i + 1] - '0'));
          i += 2;
          break;
        }
        error = std::string("invalid escape \\") + e + " in string (write \\\\ for a backslash)";
        return std::string_view::npos;
    }
  }
  error = "unterminated string";
  return std::string_view::npos;
}

}  // namespace

LexResult tokenize(std::string_view t) {
  LexResult r;
  size_t i = 0;
  auto fail = [&](size_t at, std::string msg) {
    r.error = std::move(msg);
    r.error_column = static_cast<int>(at) + 1;
    return r;
  };
  while (i < t.size()) {
    const char c = t[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token tok;
    tok.column = static_cast<int>(i) + 1;
    const size_t start = i;
    if (identStart(c)) {
      while (i < t.size() && identChar(t[i])) ++i;
      tok.kind = TokenKind::kIdent;
      tok.text = std::string(t.substr(start, i - start));
    } else if (c == '"') {
      size_t error_at = start;
      std::string error;
      size_t end = readString(t, i, tok.text, error, error_at);
      if (end == std::string_view::npos) return fail(error == "unterminated string" ? start : error_at, error);
      tok.kind = TokenKind::kString;
      i = end;
    } else if (c == '0' && i + 1 < t.size() && (t[i + 1] == 'x' || t[i + 1] == 'X')) {
      i += 2;
      const size_t digits = i;
      while (i < t.size() && isHexDigit(t[i])) ++i;
      const std::optional<std::string> bytes = hexDecode(t.substr(digits, i - digits));
      if (i == digits || !bytes || (i < t.size() && identChar(t[i])))
        return fail(start, "invalid bytes literal: 0x needs an even number of hex digits");
      tok.text += *bytes;
      tok.kind = TokenKind::kBytes;
    } else if (digit(c) || (c == '.' && i + 1 < t.size() && digit(t[i + 1]))) {
      while (i < t.size() && digit(t[i])) ++i;
      tok.kind = TokenKind::kInt;
      if (i < t.size() && t[i] == '.') {
        ++i;
        while (i < t.size() && digit(t[i])) ++i;
        tok.kind = TokenKind::kFloat;
      }
      if (i < t.size() && identChar(t[i])) return fail(start, "invalid number");
      tok.text = std::string(t.substr(start, i - start));
    } else {
      auto two = t.substr(i, 2);
      ++i;
      switch (c) {
        case '(': tok.kind = TokenKind::kLParen; break;
        case ')': tok.kind = TokenKind::kRParen; break;
        case '[': tok.kind = TokenKind::kLBracket; break;
        case ']': tok.kind = TokenKind::kRBracket; break;
        case '{': tok.kind = TokenKind::kLBrace; break;
        case '}': tok.kind = TokenKind::kRBrace; break;
        case ',': tok.kind = TokenKind::kComma; break;
        case '.': tok.kind = TokenKind::kDot; break;
        case ':': tok.kind = TokenKind::kColon; break;
        case '+': tok.kind = TokenKind::kPlus; break;
        case '-': tok.kind = TokenKind::kMinus; break;
        case '*': tok.kind = TokenKind::kStar; break;
        case '/': tok.kind = TokenKind::kSlash; break;
        case '=':
        case '!':
        case '<':
        case '>':
          if (two == "==" || two == "!=" || two == "<=" || two == ">=") {
            tok.kind = TokenKind::kCompare;
            tok.text = std::string(two);
            ++i;
          } else if (c == '<' || c == '>') {
            tok.kind = TokenKind::kCompare;
            tok.text = std::string(1, c);
          } else if (c == '=') {
            tok.kind = TokenKind::kAssign;
          } else {
            return fail(start, "unexpected '!' (write != or not)");
          }
          break;
        default: return fail(start, std::string("unexpected character '") + c + "'");
      }
    }
    r.tokens.push_back(std::move(tok));
  }
  Token end;
  end.kind = TokenKind::kEnd;
  end.column = static_cast<int>(t.size()) + 1;
  r.tokens.push_back(end);
  return r;
}

}  // namespace proflow::ottl
