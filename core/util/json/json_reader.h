// A bounded, iterative JSON pull reader (RFC 8259): the one JSON parser of production code.
//
// Every bound is checked before the work it guards grows: the document's size before the first byte
// is read, the nesting depth before a container is opened, the number of values before one more is
// counted, a string's length while it is scanned. Time is linear in the input (no recursion, no
// backtracking) and memory is the container stack (one byte per level) plus one string's decoded
// copy when it holds escapes. Errors name the byte: "nesting deeper than 64 at byte 1234".
//
//   json::Reader r(text, limits);
//   for (json::Token t = r.next(); t != json::Token::kEnd; t = r.next()) {
//     if (t == json::Token::kError) return r.error();
//     ...  // r.text(): the key or string (unescaped), or the number as written
//   }
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/status.h"

namespace proflow::json {

struct Limits {
  size_t max_bytes = size_t{4} << 20;         // the whole document
  uint32_t max_depth = 64;                    // arrays and objects open at once
  size_t max_values = 100'000;                // values of every kind, containers and scalars, in all
  size_t max_string_bytes = size_t{1} << 20;  // one key or string value, unescaped
};

enum class Token : uint8_t {
  kBeginObject,
  kEndObject,
  kBeginArray,
  kEndArray,
  kKey,  // an object member's name; its value follows
  kString,
  kNumber,
  kTrue,
  kFalse,
  kNull,
  kEnd,    // the document is complete (only whitespace followed it)
  kError,  // error() says what and where; every later next() returns kError again
};

class Reader {
 public:
  Reader(std::string_view text, const Limits& limits);

  Token next();

  // The current kKey or kString unescaped (valid UTF-8), or the kNumber's text as written. Valid
  // until the next call of next().
  std::string_view text() const { return text_; }

  // Skips the rest of the value whose first token was `first` (a whole array or object when it
  // opened one; nothing for a scalar). False when the document is malformed.
  bool skip(Token first);

  uint32_t depth() const { return static_cast<uint32_t>(stack_.size()); }
  size_t offset() const { return pos_; }
  size_t valueCount() const { return values_; }
  const Status& error() const { return error_; }

  // Fails the reader with `what` at the current byte (for a caller that finds the document
  // well-formed but not what it expects).
  Token fail(const std::string& what);

 private:
  enum class Expect : uint8_t { kValue, kFirstValueOrEnd, kKey, kFirstKeyOrEnd, kCommaOrEnd, kDone };

  Token value();
  Token open(char bracket);
  Token close(char bracket);
  Token string(Token kind);
  Token number();
  Token literal(std::string_view word, Token kind);
  bool unescape(size_t start);
  void afterValue() { expect_ = stack_.empty() ? Expect::kDone : Expect::kCommaOrEnd; }
  void skipWhitespace();

  std::string_view in_;
  Limits limits_;
  size_t pos_ = 0;
  size_t values_ = 0;
  Expect expect_ = Expect::kValue;
  std::vector<char> stack_;  // '{' or '[' per open container
  std::string_view text_;
  std::string scratch_;  // an escaped string's unescaped copy
  Status error_;
};

// A number's text as the integer or double it spells. False when it is not one (or out of range).
bool parseInt64(std::string_view number, int64_t* out);
bool parseUint64(std::string_view number, uint64_t* out);
bool parseDouble(std::string_view number, double* out);

// The protobuf JSON mapping's form of bytes as its parser reads it: base64 in the standard or the
// URL alphabet, padding optional, the bits past the last byte zero. Appends to `out`; false when
// `text` is not that.
bool decodeBase64(std::string_view text, std::string* out);

}  // namespace proflow::json
