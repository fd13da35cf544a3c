#include "core/util/json/json_document.h"

namespace proflow::json {

std::string_view Value::text() const {
  const auto& n = doc_->nodes_[index_];
  if (n.kind != Kind::kString && n.kind != Kind::kNumber && n.kind != Kind::kKey) return {};
  return std::string_view(doc_->strings_).substr(n.offset, n.size);
}

std::optional<Value> Value::member(std::string_view name) const {
  std::optional<Value> found;
  forEachMember([&](std::string_view key, Value v) {
    if (key == name) found = v;
  });
  return found;
}

Status Document::parse(std::string_view text, const Limits& limits) {
  nodes_.clear();
  strings_.clear();
  Reader reader(text, limits);
  std::vector<uint32_t> open;  // containers not closed yet; the reader bounds their number
  auto add = [&](Kind kind, std::string_view s) {
    nodes_.push_back({kind, static_cast<uint32_t>(nodes_.size() + 1), static_cast<uint32_t>(strings_.size()),
                      static_cast<uint32_t>(s.size())});
    strings_.append(s);
  };
  for (Token t = reader.next(); t != Token::kEnd; t = reader.next()) {
    switch (t) {
      case Token::kError:
        nodes_.clear();
        strings_.clear();
        return reader.error();
      case Token::kBeginObject:
      case Token::kBeginArray:
        open.push_back(static_cast<uint32_t>(nodes_.size()));
        add(t == Token::kBeginObject ? Kind::kObject : Kind::kArray, {});
        break;
      case Token::kEndObject:
      case Token::kEndArray:
        nodes_[open.back()].end = static_cast<uint32_t>(nodes_.size());
        open.pop_back();
        break;
      case Token::kKey: add(Kind::kKey, reader.text()); break;
      case Token::kString: add(Kind::kString, reader.text()); break;
      case Token::kNumber: add(Kind::kNumber, reader.text()); break;
      case Token::kTrue: add(Kind::kTrue, {}); break;
      case Token::kFalse: add(Kind::kFalse, {}); break;
      case Token::kNull: add(Kind::kNull, {}); break;
      case Token::kEnd: break;
    }
  }
  return Status::ok();
}

}  // namespace proflow::json
