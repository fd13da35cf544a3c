#include "core/flat/flat_utf8.h"

#include <string>
#include <string_view>

#include "core/flat/wire.h"
#include "core/util/utf8.h"

namespace proflow::flat {
namespace {

// The messages a nested list is made of, and what each of their length-delimited fields holds.
enum class Message { kAnyValue, kArrayValue, kKeyValueList, kKeyValue, kNone };
constexpr int kMaxDepth = formats::kProtobufRecursionLimit;

bool isText(Message m, uint32_t field) { return (m == Message::kAnyValue || m == Message::kKeyValue) && field == 1; }
Message childOf(Message m, uint32_t field) {
  switch (m) {
    case Message::kAnyValue: return field == 5 ? Message::kArrayValue : field == 6 ? Message::kKeyValueList : Message::kNone;
    case Message::kArrayValue: return field == 1 ? Message::kAnyValue : Message::kNone;
    case Message::kKeyValueList: return field == 1 ? Message::kKeyValue : Message::kNone;
    case Message::kKeyValue: return field == 2 ? Message::kAnyValue : Message::kNone;
    case Message::kNone: break;
  }
  return Message::kNone;
}

void appendVarint(std::string& out, uint64_t v) {
  uint8_t buf[10];
  const uint8_t* end = wire::putVarint(buf, v);
  out.append(reinterpret_cast<const char*>(buf), static_cast<size_t>(end - buf));
}
void appendLenField(std::string& out, uint32_t field, std::string_view payload) {
  appendVarint(out, (static_cast<uint64_t>(field) << 3) | wire::kLen);
  appendVarint(out, payload.size());
  out.append(payload);
}

// Copies the encoded message `in` into `*out` with each string field made valid UTF-8; returns how
// many it changed. Other fields are copied as they are. With `out` null it only counts. The decoder
// checked the structure; should it not parse after all, the rest is copied unread.
size_t repairMessage(std::string_view in, Message m, std::string* out, int depth) {
  wire::Reader r(in);
  size_t changed = 0;
  uint32_t field = 0, type = 0;
  const char* at = in.data();
  auto consumed = [&] { return reinterpret_cast<const char*>(r.position()); };
  auto copyRead = [&] {  // what was read since `at`, as it is
    if (out) out->append(at, static_cast<size_t>(consumed() - at));
    at = consumed();
  };
  while (depth < kMaxDepth && r.next(&field, &type)) {
    const Message child = childOf(m, field);
    if (type != wire::kLen || (!isText(m, field) && child == Message::kNone)) {
      r.skip(type, field);
      if (r.failed()) break;
      copyRead();
      continue;
    }
    const std::string_view payload = r.bytes();
    if (r.failed()) break;
    if (child != Message::kNone) {
      std::string inner;
      changed += repairMessage(payload, child, out ? &inner : nullptr, depth + 1);
      if (out) appendLenField(*out, field, inner);
    } else if (isValidUtf8(payload)) {
      copyRead();
      continue;
    } else {
      if (out) appendLenField(*out, field, sanitizeUtf8(payload));
      ++changed;
    }
    at = consumed();
  }
  if (out) out->append(at, static_cast<size_t>(in.data() + in.size() - at));
  return changed;
}

Message listMessage(const Value& v) {
  return v.kind == ValueKind::kArray ? Message::kArrayValue
         : v.kind == ValueKind::kKvList ? Message::kKeyValueList
                                        : Message::kNone;
}

// Calls text(bytes) for every string field of `b` outside nested lists, and nested(value) for every
// array or key-value list value.
template <class B, class Text, class Nested>
void forEachText(B& b, Text&& text, Nested&& nested) {
  auto value = [&](auto& v) {
    if (v.kind == ValueKind::kString) text(v.bytes);
    else if (listMessage(v) != Message::kNone) nested(v);
  };
  auto keyValues = [&](Range r) {
    for (uint32_t k = r.begin; k < r.end(); ++k) {
      auto& kv = b.key_values[k];
      if (kv.key_strindex == 0) text(kv.key);
      value(kv.value);
    }
  };
  for (auto& s : b.strings) text(s);
  for (auto& a : b.attributes) value(a.value);
  for (auto& r : b.resources) {
    text(r.schema_url);
    keyValues(r.attributes);
  }
  for (auto& s : b.scopes) {
    text(s.name);
    text(s.version);
    text(s.schema_url);
    keyValues(s.attributes);
  }
  for (auto& p : b.profiles) text(p.original_payload_format);
}

}  // namespace

size_t countInvalidUtf8(const Batch& b) {
  size_t invalid = 0;
  forEachText(
      b, [&](const Bytes& s) { invalid += isValidUtf8(b.view(s)) ? 0 : 1; },
      [&](const Value& v) { invalid += repairMessage(b.view(v.bytes), listMessage(v), nullptr, 0); });
  return invalid;
}

size_t repairInvalidUtf8(Batch& b) {
  size_t repaired = 0;
  forEachText(
      b,
      [&](Bytes& s) {
        if (isValidUtf8(b.view(s))) return;
        const std::string text = sanitizeUtf8(b.view(s));  // a copy: adding to the arena may move it
        s = b.addBytes(text);
        ++repaired;
      },
      [&](Value& v) {
        std::string out;
        const size_t n = repairMessage(b.view(v.bytes), listMessage(v), &out, 0);
        if (n == 0) return;
        v.bytes = b.addBytes(out);
        repaired += n;
      });
  return repaired;
}

const Batch& withValidUtf8(const Batch& b, Batch* scratch, size_t* repaired) {
  *repaired = countInvalidUtf8(b);
  if (*repaired == 0) return b;
  *scratch = b;
  repairInvalidUtf8(*scratch);
  return *scratch;
}

}  // namespace proflow::flat
