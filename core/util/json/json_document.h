// A whole JSON document held as one array of nodes, built by the bounded Reader (json_reader.h):
// for small documents a receiver reads a few fields of (Datadog's event.json, Pyroscope's
// sample_type_config). Memory is one node per value and key plus the strings' unescaped bytes, so a
// document within the Limits costs at most ~24 bytes per value and its own size.
//
//   json::Document doc;
//   if (Status s = doc.parse(text, limits); !s.isOk()) return s;
//   if (!doc.root().isObject()) ...
//   std::optional<json::Value> family = doc.root().member("family");
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/json/json_reader.h"

namespace proflow::json {

enum class Kind : uint8_t { kNull, kFalse, kTrue, kNumber, kString, kArray, kObject, kKey };

class Document;

// A view of one value of a Document (valid while the document lives and is not parsed again).
class Value {
 public:
  Value(const Document* doc, uint32_t index) : doc_(doc), index_(index) {}

  Kind kind() const;
  bool isNull() const { return kind() == Kind::kNull; }
  bool isBool() const { return kind() == Kind::kTrue || kind() == Kind::kFalse; }
  bool isNumber() const { return kind() == Kind::kNumber; }
  bool isString() const { return kind() == Kind::kString; }
  bool isArray() const { return kind() == Kind::kArray; }
  bool isObject() const { return kind() == Kind::kObject; }

  bool boolean() const { return kind() == Kind::kTrue; }
  // A string's unescaped text, or a number as written; empty for other kinds.
  std::string_view text() const;

  // An object's member of that name (the last one when the name repeats); nullopt when absent or not an object.
  std::optional<Value> member(std::string_view name) const;

  // Calls fn(Value) for each element of an array, fn(std::string_view name, Value) for each member of
  // an object, in document order.
  template <typename Fn>
  void forEachElement(Fn&& fn) const;
  template <typename Fn>
  void forEachMember(Fn&& fn) const;

 private:
  uint32_t end() const;
  const Document* doc_;
  uint32_t index_;
};

class Document {
 public:
  // Replaces the document. kInvalidArgument naming the byte for malformed JSON or a limit passed.
  Status parse(std::string_view text, const Limits& limits);

  Value root() const { return Value(this, 0); }

 private:
  friend class Value;
  struct Node {
    Kind kind;
    uint32_t end;     // index past this node's subtree (containers), or index + 1
    uint32_t offset;  // text in strings_
    uint32_t size;
  };
  std::vector<Node> nodes_;
  std::string strings_;  // keys, strings and numbers, back to back
};

inline Kind Value::kind() const { return doc_->nodes_[index_].kind; }
inline uint32_t Value::end() const { return doc_->nodes_[index_].end; }

template <typename Fn>
void Value::forEachElement(Fn&& fn) const {
  if (!isArray()) return;
  for (uint32_t i = index_ + 1; i < end(); i = doc_->nodes_[i].end) fn(Value(doc_, i));
}

template <typename Fn>
void Value::forEachMember(Fn&& fn) const {
  if (!isObject()) return;
  for (uint32_t i = index_ + 1; i < end(); i = doc_->nodes_[i + 1].end)
    fn(Value(doc_, i).text(), Value(doc_, i + 1));
}

}  // namespace proflow::json
