#include "core/flat/flat_compact.h"

#include <cstdint>
#include <vector>

#include "core/flat/flat_nested.h"

namespace proflow::flat {
namespace {

// Marks what the live items reference, then re-points every reference through old -> new index
// tables. Lists of `indices` and `key_values` can be shared between items (an edit points every
// sample with the same list at one copy), so each element is re-pointed once, tracked by a bitmap.
class Compactor {
 public:
  explicit Compactor(Batch& b) : b_(b), strings_(b.strings.size(), 0), attributes_(b.attributes.size(), 0) {}

  DroppedEntries run() {
    markAttributes();
    markStrings();
    DroppedEntries dropped;
    dropped.strings = renumber(strings_);
    dropped.attributes = renumber(attributes_);
    if (!dropped.any()) return dropped;
    keep(b_.strings, strings_);
    keep(b_.attributes, attributes_);
    repoint();
    return dropped;
  }

 private:
  template <class Fn>
  void forEachAttributeList(Fn&& fn) const {
    for (const Range& r : b_.samples.attributes) fn(r);
    for (const Profile& p : b_.profiles) fn(p.attributes);
    for (const Mapping& m : b_.mappings) fn(m.attributes);
    for (const Location& l : b_.locations) fn(l.attributes);
  }
  template <class Fn>
  void forEachKeyValueList(Fn&& fn) const {
    for (const Resource& r : b_.resources) fn(r.attributes);
    for (const Scope& s : b_.scopes) fn(s.attributes);
  }

  static void mark(std::vector<int32_t>& used, int32_t i) {
    if (i >= 0 && static_cast<size_t>(i) < used.size()) used[static_cast<size_t>(i)] = 1;
  }

  void markAttributes() {
    if (!attributes_.empty()) attributes_[0] = 1;
    forEachAttributeList([&](Range r) {
      for (int32_t i : b_.indexList(r)) mark(attributes_, i);
    });
  }

  void markValue(const Value& v) {
    if (v.kind == ValueKind::kStrindex) mark(strings_, v.strindex());
    if ((v.kind == ValueKind::kArray || v.kind == ValueKind::kKvList) && v.nested_refs)
      (void)remapNested(v, b_, [&](int32_t i) {
        mark(strings_, i);
        return i;
      });
  }

  void markStrings() {
    if (!strings_.empty()) strings_[0] = 1;
    for (size_t i = 0; i < b_.attributes.size(); ++i) {
      if (!attributes_[i]) continue;
      const Attribute& a = b_.attributes[i];
      mark(strings_, a.key_strindex);
      mark(strings_, a.unit_strindex);
      markValue(a.value);
    }
    for (const Function& f : b_.functions) {
      mark(strings_, f.name_strindex);
      mark(strings_, f.system_name_strindex);
      mark(strings_, f.filename_strindex);
    }
    for (const Mapping& m : b_.mappings) mark(strings_, m.filename_strindex);
    for (const Profile& p : b_.profiles)
      for (const ValueType& vt : {p.sample_type, p.period_type}) {
        mark(strings_, vt.type_strindex);
        mark(strings_, vt.unit_strindex);
      }
    forEachKeyValueList([&](Range r) {
      for (const KeyValue& kv : Batch::slice(b_.key_values, r)) {
        if (kv.key_strindex != 0) mark(strings_, kv.key_strindex);
        markValue(kv.value);
      }
    });
  }

  // Turns the marks into new indexes (an unmarked entry maps to 0); returns how many go.
  static size_t renumber(std::vector<int32_t>& used) {
    int32_t next = 0;
    size_t dropped = 0;
    for (int32_t& u : used) {
      if (u) {
        u = next++;
      } else {
        u = -1;
        ++dropped;
      }
    }
    return dropped;
  }

  template <class T>
  static void keep(std::vector<T>& table, const std::vector<int32_t>& to) {
    size_t out = 0;
    for (size_t i = 0; i < table.size(); ++i)
      if (to[i] >= 0) table[out++] = table[i];
    table.resize(out);
  }

  static int32_t lookup(const std::vector<int32_t>& to, int32_t i) {
    if (i < 0 || static_cast<size_t>(i) >= to.size() || to[static_cast<size_t>(i)] < 0) return 0;
    return to[static_cast<size_t>(i)];
  }
  int32_t str(int32_t i) const { return lookup(strings_, i); }

  void repointValue(Value& v) {
    if (v.kind == ValueKind::kStrindex) v.scalar = str(v.strindex());
    if ((v.kind == ValueKind::kArray || v.kind == ValueKind::kKvList) && v.nested_refs)
      v.bytes = b_.addBytes(remapNested(v, b_, [&](int32_t i) { return str(i); }));
  }

  void repoint() {
    for (Attribute& a : b_.attributes) {
      a.key_strindex = str(a.key_strindex);
      a.unit_strindex = str(a.unit_strindex);
      repointValue(a.value);
    }
    for (Function& f : b_.functions) {
      f.name_strindex = str(f.name_strindex);
      f.system_name_strindex = str(f.system_name_strindex);
      f.filename_strindex = str(f.filename_strindex);
    }
    for (Mapping& m : b_.mappings) m.filename_strindex = str(m.filename_strindex);
    for (Profile& p : b_.profiles)
      for (ValueType* vt : {&p.sample_type, &p.period_type}) {
        vt->type_strindex = str(vt->type_strindex);
        vt->unit_strindex = str(vt->unit_strindex);
      }
    std::vector<uint8_t> done(b_.key_values.size());  // bytes: cheaper to test and set than bits
    forEachKeyValueList([&](Range r) {
      for (uint32_t k = r.begin; k < r.end(); ++k) {
        if (done[k]) continue;
        done[k] = 1;
        KeyValue& kv = b_.key_values[k];
        if (kv.key_strindex != 0) kv.key_strindex = str(kv.key_strindex);
        repointValue(kv.value);
      }
    });
    done.assign(b_.indices.size(), 0);
    forEachAttributeList([&](Range r) {
      for (uint32_t k = r.begin; k < r.end(); ++k) {
        if (done[k]) continue;
        done[k] = 1;
        b_.indices[k] = lookup(attributes_, b_.indices[k]);
      }
    });
  }

  Batch& b_;
  // Per entry: marked (1) or not (0), then its new index (-1 when dropped).
  std::vector<int32_t> strings_, attributes_;
};

}  // namespace

DroppedEntries dropUnreferenced(Batch& b) { return Compactor(b).run(); }

}  // namespace proflow::flat
