#include "core/util/json/json_reader.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/util/hex.h"
#include "core/util/utf8.h"

namespace proflow::json {
namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

void appendUtf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

}  // namespace

Reader::Reader(std::string_view text, const Limits& limits) : in_(text), limits_(limits) {
  if (in_.size() > limits_.max_bytes) {
    fail("document of " + std::to_string(in_.size()) + " bytes, more than the " +
         std::to_string(limits_.max_bytes) + " allowed");
    return;
  }
  stack_.reserve(limits_.max_depth);
}

Token Reader::fail(const std::string& what) {
  if (error_.isOk()) error_ = Status::invalid("invalid JSON: " + what + " at byte " + std::to_string(pos_));
  return Token::kError;
}

void Reader::skipWhitespace() {
  while (pos_ < in_.size()) {
    const char c = in_[pos_];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
    ++pos_;
  }
}

Token Reader::next() {
  if (!error_.isOk()) return Token::kError;
  skipWhitespace();
  if (expect_ == Expect::kDone) {
    if (pos_ == in_.size()) return Token::kEnd;
    return fail("unexpected data after the JSON value");
  }
  if (pos_ >= in_.size()) return fail("unexpected end of the document");
  const char c = in_[pos_];
  const char container = stack_.empty() ? 0 : stack_.back();
  switch (expect_) {
    case Expect::kCommaOrEnd:
      if (c == ',') {
        ++pos_;
        skipWhitespace();
        if (pos_ >= in_.size()) return fail("unexpected end of the document");
        if (container == '[') return value();
        if (in_[pos_] != '"') return fail("expected a string key");
        return string(Token::kKey);
      }
      if (c == (container == '{' ? '}' : ']')) return close(c);
      return fail(container == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
    case Expect::kFirstKeyOrEnd:
      if (c == '}') return close(c);
      [[fallthrough]];
    case Expect::kKey:
      if (c != '"') return fail("expected a string key");
      return string(Token::kKey);
    case Expect::kFirstValueOrEnd:
      if (c == ']') return close(c);
      [[fallthrough]];
    case Expect::kValue:
    case Expect::kDone:
      break;
  }
  return value();
}

Token Reader::value() {
  if (values_ >= limits_.max_values)
    return fail("more than " + std::to_string(limits_.max_values) + " values");
  ++values_;
  const char c = in_[pos_];
  switch (c) {
    case '{':
    case '[':
      return open(c);
    case '"':
      return string(Token::kString);
    case 't':
      return literal("true", Token::kTrue);
    case 'f':
      return literal("false", Token::kFalse);
    case 'n':
      return literal("null", Token::kNull);
    default:
      if (c == '-' || isDigit(c)) return number();
      return fail(std::string("unexpected character '") + (static_cast<unsigned char>(c) < 0x20 ? '?' : c) +
                  "', expected a value");
  }
}

Token Reader::open(char bracket) {
  if (stack_.size() >= limits_.max_depth) return fail("nesting deeper than " + std::to_string(limits_.max_depth));
  stack_.push_back(bracket);
  ++pos_;
  expect_ = bracket == '{' ? Expect::kFirstKeyOrEnd : Expect::kFirstValueOrEnd;
  return bracket == '{' ? Token::kBeginObject : Token::kBeginArray;
}

Token Reader::close(char bracket) {
  stack_.pop_back();
  ++pos_;
  afterValue();
  return bracket == '}' ? Token::kEndObject : Token::kEndArray;
}

Token Reader::literal(std::string_view word, Token kind) {
  if (in_.substr(pos_, word.size()) != word) return fail("unexpected character, expected a value");
  pos_ += word.size();
  afterValue();
  return kind;
}

Token Reader::number() {
  const size_t start = pos_;
  if (in_[pos_] == '-') ++pos_;
  auto digits = [&] {
    const size_t s = pos_;
    while (pos_ < in_.size() && isDigit(in_[pos_])) ++pos_;
    return pos_ - s;
  };
  const size_t int_start = pos_;
  const size_t int_digits = digits();
  if (int_digits == 0) return fail("invalid number");
  if (int_digits > 1 && in_[int_start] == '0') return fail("invalid number (leading zero)");
  if (pos_ < in_.size() && in_[pos_] == '.') {
    ++pos_;
    if (digits() == 0) return fail("invalid number");
  }
  if (pos_ < in_.size() && (in_[pos_] == 'e' || in_[pos_] == 'E')) {
    ++pos_;
    if (pos_ < in_.size() && (in_[pos_] == '+' || in_[pos_] == '-')) ++pos_;
    if (digits() == 0) return fail("invalid number");
  }
  if (pos_ - start > limits_.max_string_bytes) return fail("number longer than the string limit");
  text_ = in_.substr(start, pos_ - start);
  // A number past the range of a double is refused (as protobuf's parser refuses it, wherever it is).
  // Only an exponent or a very long integer part can get there, so others are not converted.
  const bool exponent = text_.find_first_of("eE") != std::string_view::npos;
  if ((exponent || int_digits > 300) && std::isinf(std::strtod(std::string(text_).c_str(), nullptr)))
    return fail("number out of the range of a double");
  afterValue();
  return Token::kNumber;
}

Token Reader::string(Token kind) {
  const size_t start = ++pos_;  // past the opening quote
  // Fast path: no escape, so the text is a view of the input.
  while (pos_ < in_.size()) {
    const char c = in_[pos_];
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) break;
    ++pos_;
  }
  if (pos_ - start > limits_.max_string_bytes)
    return fail("string longer than " + std::to_string(limits_.max_string_bytes) + " bytes");
  if (pos_ >= in_.size()) return fail("unterminated string");
  if (in_[pos_] == '"') {
    text_ = in_.substr(start, pos_ - start);
    if (!isValidUtf8(text_)) return fail("string is not valid UTF-8");
    ++pos_;
  } else if (!unescape(start)) {
    return Token::kError;
  }
  if (kind == Token::kKey) {
    skipWhitespace();
    if (pos_ >= in_.size() || in_[pos_] != ':') return fail("expected ':' after an object key");
    ++pos_;
    expect_ = Expect::kValue;
  } else {
    afterValue();
  }
  return kind;
}

// Continues the string begun at `start` (pos_ at its first escape or control character) into scratch_.
bool Reader::unescape(size_t start) {
  scratch_.assign(in_.substr(start, pos_ - start));
  size_t run = pos_;  // start of the unescaped run being scanned
  auto flushRun = [&] { scratch_.append(in_.substr(run, pos_ - run)); };
  while (true) {
    if (scratch_.size() + (pos_ - run) > limits_.max_string_bytes) {
      fail("string longer than " + std::to_string(limits_.max_string_bytes) + " bytes");
      return false;
    }
    if (pos_ >= in_.size()) {
      fail("unterminated string");
      return false;
    }
    const char c = in_[pos_];
    if (c == '"') {
      flushRun();
      ++pos_;
      break;
    }
    if (static_cast<unsigned char>(c) < 0x20) {
      fail("control character in a string");
      return false;
    }
    if (c != '\\') {
      ++pos_;
      continue;
    }
    flushRun();
    if (pos_ + 1 >= in_.size()) {
      fail("unterminated string");
      return false;
    }
    const char e = in_[pos_ + 1];
    pos_ += 2;
    switch (e) {
      case '"': scratch_ += '"'; break;
      case '\\': scratch_ += '\\'; break;
      case '/': scratch_ += '/'; break;
      case 'b': scratch_ += '\b'; break;
      case 'f': scratch_ += '\f'; break;
      case 'n': scratch_ += '\n'; break;
      case 'r': scratch_ += '\r'; break;
      case 't': scratch_ += '\t'; break;
      case 'u': {
        auto hex4 = [&](uint32_t* v) {
          if (pos_ + 4 > in_.size()) return false;
          *v = 0;
          for (size_t i = 0; i < 4; ++i) {
            const int d = hexDigitValue(in_[pos_ + i]);
            if (d < 0) return false;
            *v = *v * 16 + static_cast<uint32_t>(d);
          }
          pos_ += 4;
          return true;
        };
        uint32_t cp;
        if (!hex4(&cp)) {
          fail("invalid \\u escape");
          return false;
        }
        if (cp >= 0xdc00 && cp <= 0xdfff) {
          fail("unpaired surrogate in a \\u escape");
          return false;
        }
        if (cp >= 0xd800 && cp <= 0xdbff) {
          uint32_t low;
          if (in_.substr(pos_, 2) != "\\u" || (pos_ += 2, !hex4(&low)) || low < 0xdc00 || low > 0xdfff) {
            fail("unpaired surrogate in a \\u escape");
            return false;
          }
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        }
        appendUtf8(cp, scratch_);
        break;
      }
      default:
        --pos_;
        fail("invalid escape in a string");
        return false;
    }
    run = pos_;
  }
  if (scratch_.size() > limits_.max_string_bytes) {
    fail("string longer than " + std::to_string(limits_.max_string_bytes) + " bytes");
    return false;
  }
  if (!isValidUtf8(scratch_)) {
    fail("string is not valid UTF-8");
    return false;
  }
  text_ = scratch_;
  return true;
}

bool Reader::skip(Token first) {
  if (first != Token::kBeginObject && first != Token::kBeginArray) return first != Token::kError;
  const size_t depth = stack_.size();
  while (stack_.size() >= depth) {
    const Token t = next();
    if (t == Token::kError || t == Token::kEnd) return false;
  }
  return true;
}

bool decodeBase64(std::string_view text, std::string* out) {
  auto digit = [](char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
  };
  size_t n = text.size();
  if (n % 4 == 0 && n >= 2 && text[n - 1] == '=') n -= text[n - 2] == '=' ? 2 : 1;
  if (n % 4 == 1) return false;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; ++i) {
    const int v = digit(text[i]);
    if (v < 0) return false;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return (acc & ((1u << bits) - 1)) == 0;
}

bool parseInt64(std::string_view number, int64_t* out) {
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), *out);
  return ec == std::errc() && end == number.data() + number.size();
}

bool parseUint64(std::string_view number, uint64_t* out) {
  if (!number.empty() && number[0] == '-') return false;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), *out);
  return ec == std::errc() && end == number.data() + number.size();
}

bool parseDouble(std::string_view number, double* out) {
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), *out);
  return ec == std::errc() && end == number.data() + number.size();
}

}  // namespace proflow::json
