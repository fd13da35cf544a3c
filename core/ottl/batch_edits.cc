#include "core/ottl/batch_edits.h"

#include <algorithm>
#include <bit>
#include <functional>

namespace proflow::ottl {
namespace {

bool sameScalar(const Value& a, const Value& b) { return a.kind == b.kind && equal(a, b); }

// True when the stored value `f` is the scalar `v` (strings inline or by reference alike).
bool holds(const flat::Batch& b, const flat::Value& f, const Value& v) {
  switch (v.kind) {
    case Value::Kind::kString:
      if (f.kind == flat::ValueKind::kString) return b.view(f.bytes) == v.s;
      return f.kind == flat::ValueKind::kStrindex && b.string(f.strindex()) == v.s;
    case Value::Kind::kBytes: return f.kind == flat::ValueKind::kBytes && b.view(f.bytes) == v.s;
    case Value::Kind::kBool: return f.kind == flat::ValueKind::kBool && f.boolValue() == v.b;
    case Value::Kind::kInt: return f.kind == flat::ValueKind::kInt && f.intValue() == v.i;
    case Value::Kind::kDouble: return f.kind == flat::ValueKind::kDouble && f.scalar == std::bit_cast<int64_t>(v.d);
    default: return false;
  }
}

flat::Value store(flat::Batch& b, const Value& v) {
  flat::Value out;
  switch (v.kind) {
    case Value::Kind::kString: out.kind = flat::ValueKind::kString; out.bytes = b.addBytes(v.s); break;
    case Value::Kind::kBytes: out.kind = flat::ValueKind::kBytes; out.bytes = b.addBytes(v.s); break;
    case Value::Kind::kBool: out.kind = flat::ValueKind::kBool; out.scalar = v.b ? 1 : 0; break;
    case Value::Kind::kInt: out.kind = flat::ValueKind::kInt; out.scalar = v.i; break;
    case Value::Kind::kDouble: out.kind = flat::ValueKind::kDouble; out.scalar = std::bit_cast<int64_t>(v.d); break;
    default: out.kind = flat::ValueKind::kEmpty; break;
  }
  return out;
}

}  // namespace

bool BatchEdits::mayScan(size_t entries) {
  if (dict_ || scanned_ + entries > kScanBudget) return false;
  scanned_ += entries;
  return true;
}

flat::DictionaryIndex& BatchEdits::index(flat::Batch& b) {
  if (!dict_) dict_.emplace(&b);
  return *dict_;
}

int32_t BatchEdits::string(flat::Batch& b, std::string_view s) {
  if (!mayScan(b.strings.size())) return index(b).string(s);
  for (size_t i = 0; i < b.strings.size(); ++i)
    if (b.strings[i].size == s.size() && b.view(b.strings[i]) == s) return static_cast<int32_t>(i);
  if (b.strings.empty()) b.strings.push_back(b.addBytes(""));  // index 0 is the empty string
  if (s.empty()) return 0;
  b.strings.push_back(b.addBytes(s));
  return static_cast<int32_t>(b.strings.size() - 1);
}

int32_t BatchEdits::scalarAttribute(flat::Batch& b, std::string_view key, int32_t unit_strindex, const Value& v) {
  for (auto it = recent_.rbegin(); it != recent_.rend(); ++it)
    if (it->unit == unit_strindex && it->key == key && sameScalar(it->value, v)) return it->index;
  int32_t found = -1;
  if (mayScan(b.attributes.size())) {
    for (size_t i = 1; i < b.attributes.size() && found < 0; ++i) {
      const flat::Attribute& a = b.attributes[i];
      if (a.unit_strindex == unit_strindex && holds(b, a.value, v) && b.string(a.key_strindex) == key)
        found = static_cast<int32_t>(i);
    }
    if (found < 0) {
      flat::Attribute a;
      a.key_strindex = string(b, key);
      a.unit_strindex = unit_strindex;
      a.value = store(b, v);
      if (b.attributes.empty()) b.attributes.emplace_back();  // index 0 is the zero attribute
      b.attributes.push_back(a);
      found = static_cast<int32_t>(b.attributes.size() - 1);
    }
  } else {
    flat::DictionaryIndex& dict = index(b);
    flat::Attribute a;
    a.key_strindex = dict.string(key);
    a.unit_strindex = unit_strindex;
    const size_t arena = b.arena.size(), before = b.attributes.size();
    a.value = store(b, v);
    found = dict.attribute(a);
    if (b.attributes.size() == before) b.arena.resize(arena);  // found: the candidate's bytes are not needed
  }
  // A statement usually sets one or two values over a whole batch: the newest few are enough.
  constexpr size_t kRecent = 8;
  if (recent_.size() == kRecent) recent_.erase(recent_.begin());
  recent_.push_back({std::string(key), unit_strindex, v, found});
  return found;
}

flat::Range BatchEdits::list(flat::Batch& b, std::span<const int32_t> list) {
  const std::string_view bytes(reinterpret_cast<const char*>(list.data()), list.size_bytes());
  const int32_t at = lists_index_.intern(
      std::hash<std::string_view>{}(bytes),
      [&](int32_t i) {
        const auto known = b.indexList(lists_[static_cast<size_t>(i)]);
        return std::equal(known.begin(), known.end(), list.begin(), list.end());
      },
      [&] {
        lists_.push_back(flat::Range{static_cast<uint32_t>(b.indices.size()), static_cast<uint32_t>(list.size())});
        b.indices.insert(b.indices.end(), list.begin(), list.end());
        return static_cast<int32_t>(lists_.size() - 1);
      });
  return lists_[static_cast<size_t>(at)];
}

}  // namespace proflow::ottl
