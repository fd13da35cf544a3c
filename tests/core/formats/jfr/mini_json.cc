#include "tests/core/formats/jfr/mini_json.h"

#include <cstdlib>

#include "core/formats/jfr/byte_reader.h"

namespace proflow::testing {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  bool value(Json* out, int depth) {
    ws();
    if (depth > 200 || i_ >= s_.size()) return false;
    char c = s_[i_];
    if (c == '{') return object(out, depth);
    if (c == '[') return array(out, depth);
    if (c == '"') return out->type = Json::Type::kString, string(&out->text);
    if (literal("null")) return out->type = Json::Type::kNull, true;
    if (literal("true")) return out->type = Json::Type::kBool, out->boolean = true, true;
    if (literal("false")) return out->type = Json::Type::kBool, out->boolean = false, true;
    size_t start = i_;
    while (i_ < s_.size() && std::string_view("+-0123456789.eE").find(s_[i_]) != std::string_view::npos) ++i_;
    if (start == i_) return false;
    out->type = Json::Type::kNumber;
    out->text = std::string(s_.substr(start, i_ - start));
    out->number = std::strtod(out->text.c_str(), nullptr);
    return true;
  }

  size_t pos() const { return i_; }
  bool atEnd() {
    ws();
    return i_ == s_.size();
  }

 private:
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  bool literal(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  bool expect(char c) {
    ws();
    if (i_ >= s_.size() || s_[i_] != c) return false;
    ++i_;
    return true;
  }

  bool object(Json* out, int depth) {
    out->type = Json::Type::kObject;
    ++i_;
    if (expect('}')) return true;
    do {
      ws();
      std::string key;
      if (i_ >= s_.size() || s_[i_] != '"' || !string(&key) || !expect(':')) return false;
      if (!value(&out->fields[key], depth + 1)) return false;
    } while (expect(','));
    return expect('}');
  }

  bool array(Json* out, int depth) {
    out->type = Json::Type::kArray;
    ++i_;
    if (expect(']')) return true;
    do {
      out->items.emplace_back();
      if (!value(&out->items.back(), depth + 1)) return false;
    } while (expect(','));
    return expect(']');
  }

  bool string(std::string* out) {
    ++i_;  // opening quote
    while (i_ < s_.size()) {
      char c = s_[i_++];
      if (c == '"') return true;
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (i_ >= s_.size()) return false;
      char e = s_[i_++];
      switch (e) {
        case 'n': out->push_back('\n'); break;
        case 't': out->push_back('\t'); break;
        case 'r': out->push_back('\r'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'u': {
          if (i_ + 4 > s_.size()) return false;
          uint32_t cp = static_cast<uint32_t>(std::strtoul(std::string(s_.substr(i_, 4)).c_str(), nullptr, 16));
          i_ += 4;
          if (cp >= 0xD800 && cp <= 0xDBFF && s_.substr(i_, 2) == "\\u" && i_ + 6 <= s_.size()) {
            uint32_t lo = static_cast<uint32_t>(std::strtoul(std::string(s_.substr(i_ + 2, 4)).c_str(), nullptr, 16));
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
              i_ += 6;
            }
          }
          jfr::appendUtf8(*out, cp);
          break;
        }
        default: out->push_back(e);  // \" \\ \/
      }
    }
    return false;
  }

  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

const Json& Json::operator[](std::string_view key) const {
  static const Json kNull;
  if (type != Type::kObject) return kNull;
  auto it = fields.find(key);
  return it == fields.end() ? kNull : it->second;
}

bool parseJson(std::string_view text, Json* out, std::string* error) {
  Parser p(text);
  if (!p.value(out, 0) || !p.atEnd()) {
    *error = "malformed JSON near byte " + std::to_string(p.pos());
    return false;
  }
  return true;
}

}  // namespace proflow::testing
