#include "tests/support/otlp_json_protobuf.h"

#include <google/protobuf/util/json_util.h>

#include <array>
#include <cstdint>

#include "core/util/hex.h"
#include "core/util/json/json_reader.h"

namespace proflow::otlp_json_pb {

namespace {

constexpr int kMaxDepth = 100;  // protobuf's own JSON recursion limit
constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

bool isIdKey(std::string_view k) {
  // snake_case too: protobuf's parser accepts those names, so the same ids may arrive under them.
  return k == "traceId" || k == "spanId" || k == "profileId" || k == "trace_id" || k == "span_id" ||
         k == "profile_id";
}

void appendBase64(std::string_view bytes, std::string& out) {
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t v = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
    out += {kB64[v >> 18], kB64[(v >> 12) & 63], kB64[(v >> 6) & 63], kB64[v & 63]};
  }
  if (size_t rest = bytes.size() - i; rest > 0) {
    uint32_t v = uint8_t(bytes[i]) << 16 | (rest == 2 ? uint8_t(bytes[i + 1]) << 8 : 0);
    out += {kB64[v >> 18], kB64[(v >> 12) & 63], rest == 2 ? kB64[(v >> 6) & 63] : '=', '='};
  }
}

class Scanner {
 public:
  Scanner(std::string_view in, bool hex_to_base64, std::string* out)
      : in_(in), hex_to_base64_(hex_to_base64), out_(out) {}

  Status run() {
    out_->clear();
    out_->reserve(in_.size() + 64);
    skipWs();
    if (!value(0, {})) return error_;
    skipWs();
    if (pos_ != in_.size()) return failStatus("unexpected data after the JSON value");
    out_->append(in_.substr(copied_));
    return Status::ok();
  }

 private:
  bool fail(const std::string& what) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos_ && i < in_.size(); ++i) {
      if (in_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    error_ = Status::invalid("invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(col) +
                             " (offset " + std::to_string(pos_) + "): " + what);
    return false;
  }
  Status failStatus(const std::string& what) {
    fail(what);
    return error_;
  }

  void skipWs() {
    while (pos_ < in_.size() && (in_[pos_] == ' ' || in_[pos_] == '\t' || in_[pos_] == '\n' || in_[pos_] == '\r')) ++pos_;
  }
  bool expect(char c, const char* what) {
    skipWs();
    if (pos_ >= in_.size() || in_[pos_] != c) return fail(what);
    ++pos_;
    return true;
  }

  bool value(int depth, std::string_view key) {
    if (depth > kMaxDepth) return fail("nesting deeper than " + std::to_string(kMaxDepth));
    skipWs();
    if (pos_ >= in_.size()) return fail("unexpected end of input, expected a value");
    char c = in_[pos_];
    if (c == '{') return object(depth);
    if (c == '[') return array(depth);
    if (c == '"') {
      size_t start = pos_;
      std::string_view raw;
      if (!string(&raw)) return false;
      if (isIdKey(key)) return rewrite(start, raw, key);
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    for (std::string_view lit : {"true", "false", "null"}) {
      if (in_.substr(pos_, lit.size()) == lit) {
        pos_ += lit.size();
        return true;
      }
    }
    return fail(std::string("unexpected character '") + c + "', expected a value");
  }

  bool object(int depth) {
    ++pos_;  // '{'
    skipWs();
    if (pos_ < in_.size() && in_[pos_] == '}') return ++pos_, true;
    while (true) {
      skipWs();
      if (pos_ >= in_.size() || in_[pos_] != '"') return fail("expected a string key");
      std::string_view key;
      if (!string(&key)) return false;
      if (!expect(':', "expected ':' after an object key")) return false;
      if (!value(depth + 1, key)) return false;
      skipWs();
      if (pos_ < in_.size() && in_[pos_] == ',') {
        ++pos_;
        continue;
      }
      return expect('}', "expected ',' or '}' in an object");
    }
  }

  bool array(int depth) {
    ++pos_;  // '['
    skipWs();
    if (pos_ < in_.size() && in_[pos_] == ']') return ++pos_, true;
    while (true) {
      if (!value(depth + 1, {})) return false;
      skipWs();
      if (pos_ < in_.size() && in_[pos_] == ',') {
        ++pos_;
        continue;
      }
      return expect(']', "expected ',' or ']' in an array");
    }
  }

  // Leaves `raw` = the characters between the quotes, escapes not decoded.
  bool string(std::string_view* raw) {
    size_t start = ++pos_;
    while (pos_ < in_.size()) {
      char c = in_[pos_];
      if (c == '"') {
        *raw = in_.substr(start, pos_ - start);
        ++pos_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
      pos_ += c == '\\' ? 2 : 1;
    }
    pos_ = in_.size();
    return fail("unterminated string");
  }

  bool number() {
    size_t start = pos_;
    if (in_[pos_] == '-') ++pos_;
    auto digits = [&] {
      size_t s = pos_;
      while (pos_ < in_.size() && in_[pos_] >= '0' && in_[pos_] <= '9') ++pos_;
      return pos_ > s;
    };
    if (!digits()) return fail("invalid number");
    if (pos_ < in_.size() && in_[pos_] == '.' && (++pos_, !digits())) return fail("invalid number");
    if (pos_ < in_.size() && (in_[pos_] == 'e' || in_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < in_.size() && (in_[pos_] == '+' || in_[pos_] == '-')) ++pos_;
      if (!digits()) return fail("invalid number");
    }
    return pos_ > start;
  }

  // Replaces the quoted id at [start, pos_) with its other encoding.
  bool rewrite(size_t start, std::string_view raw, std::string_view key) {
    std::string bytes;
    if (hex_to_base64_) {
      if (!hexToBytes(raw, key, start, &bytes)) return false;
    } else if (!base64ToBytes(raw, &bytes)) {
      pos_ = start;
      return fail(std::string(key) + " is not base64");
    }
    out_->append(in_.substr(copied_, start - copied_));
    out_->push_back('"');
    if (hex_to_base64_) {
      appendBase64(bytes, *out_);
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      for (char b : bytes) *out_ += {kHex[uint8_t(b) >> 4], kHex[uint8_t(b) & 15]};
    }
    out_->push_back('"');
    copied_ = pos_;
    return true;
  }

  bool hexToBytes(std::string_view raw, std::string_view key, size_t start, std::string* bytes) {
    for (size_t i = 0; i < raw.size(); ++i) {
      if (!isHexDigit(raw[i])) {
        pos_ = start + 1 + i;
        return fail(std::string(key) + " must be a hex string, found '" + raw[i] + "'");
      }
    }
    if (raw.size() % 2 != 0) {
      pos_ = start;
      return fail(std::string(key) + " must be a hex string with an even number of digits, got " +
                  std::to_string(raw.size()));
    }
    bytes->reserve(raw.size() / 2);
    for (size_t i = 0; i < raw.size(); i += 2) bytes->push_back(static_cast<char>(hexDigitValue(raw[i]) * 16 + hexDigitValue(raw[i + 1])));
    return true;
  }

  // Protobuf printed the bytes, so they are valid base64.
  static bool base64ToBytes(std::string_view raw, std::string* bytes) { return json::decodeBase64(raw, bytes); }

  std::string_view in_;
  bool hex_to_base64_;
  std::string* out_;
  size_t pos_ = 0;
  size_t copied_ = 0;
  Status error_;
};

}  // namespace

Status rewriteIds(std::string_view json, bool hex_to_base64, std::string* out) {
  return Scanner(json, hex_to_base64, out).run();
}




Status parseOtlpJson(std::string_view json, google::protobuf::Message* out) {
  std::string rewritten;
  if (Status s = rewriteIds(json, /*hex_to_base64=*/true, &rewritten); !s.isOk()) return s;
  google::protobuf::util::JsonParseOptions opts;
  opts.ignore_unknown_fields = true;  // OTLP: receivers MUST ignore unknown fields
  out->Clear();
  auto st = google::protobuf::util::JsonStringToMessage(rewritten, out, opts);
  if (!st.ok()) return Status::invalid("invalid OTLP/JSON: " + std::string(st.message()));
  return Status::ok();
}

std::string toOtlpJson(const google::protobuf::Message& msg) {
  google::protobuf::util::JsonPrintOptions opts;
  opts.always_print_enums_as_ints = true;  // OTLP/JSON: enums are integers
  std::string printed, out;
  auto st = google::protobuf::util::MessageToJsonString(msg, &printed, opts);
  if (!st.ok()) return {};
  // Protobuf printed it, so it is valid JSON with base64 ids; the rewrite cannot fail.
  if (!rewriteIds(printed, /*hex_to_base64=*/false, &out).isOk()) return printed;
  return out;
}

}  // namespace proflow::otlp_json_pb
