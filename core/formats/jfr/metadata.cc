#include "core/formats/jfr/metadata.h"

#include <algorithm>
#include <charconv>

namespace proflow::jfr {

namespace {

constexpr int kMaxDepth = 64;

Kind primitiveKind(std::string_view name) {
  if (name == "boolean") return Kind::kBoolean;
  if (name == "byte") return Kind::kByte;
  if (name == "char") return Kind::kChar;
  if (name == "short") return Kind::kShort;
  if (name == "int") return Kind::kInt;
  if (name == "long") return Kind::kLong;
  if (name == "float") return Kind::kFloat;
  if (name == "double") return Kind::kDouble;
  if (name == "java.lang.String") return Kind::kString;
  return Kind::kStruct;
}

TimeUnit unitFromName(std::string_view v) {
  if (v == "TICKS") return TimeUnit::kTicks;
  if (v == "NANOSECONDS") return TimeUnit::kNanoseconds;
  if (v == "MICROSECONDS") return TimeUnit::kMicroseconds;
  if (v == "MILLISECONDS") return TimeUnit::kMilliseconds;
  if (v == "SECONDS") return TimeUnit::kSeconds;
  return TimeUnit::kNone;
}

bool parseU64(std::string_view s, uint64_t* out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

int ClassDesc::fieldIndex(std::string_view field_name) const {
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == field_name) return static_cast<int>(i);
  return -1;
}

int32_t Metadata::indexByName(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? -1 : it->second;
}

int32_t Metadata::indexById(uint64_t id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? -1 : it->second;
}

bool Metadata::parse(ByteReader& r, uint64_t end, std::string* error) {
  r.varint();  // start ticks
  r.varint();  // duration
  metadata_id_ = r.varint();
  uint64_t n = r.varint();
  if (!r.ok() || n > r.remaining()) {
    *error = "bad metadata string table";
    return false;
  }
  strings_.clear();
  strings_.reserve(n);
  std::string scratch;
  for (uint64_t i = 0; i < n; ++i) {
    std::string_view s;
    uint64_t key = 0;
    bool is_ref = false;
    if (!readString(r, scratch, &s, &key, &is_ref) || is_ref) {
      *error = "bad metadata string";
      return false;
    }
    strings_.emplace_back(s);
  }
  if (!readTree(r, end, error)) return false;
  if (r.offset() != end) {
    *error = "metadata event size does not match its content";
    return false;
  }
  if (!buildClasses(error)) return false;
  resolveTypes();
  computeEmptyEncodings();
  computeFlatSteps();
  strings_.clear();
  elements_.clear();
  attributes_.clear();
  return true;
}

// Reads the element tree iteratively (explicit stack) so hostile nesting cannot overflow the C++ stack.
bool Metadata::readTree(ByteReader& r, uint64_t end, std::string* error) {
  elements_.clear();
  attributes_.clear();
  // An element takes at least three bytes (name, attribute count, child count); a JDK's metadata
  // has a few thousand. The cap keeps a hostile size from reserving much.
  const uint64_t bytes = std::min<uint64_t>(r.remaining(), end > r.offset() ? end - r.offset() : 0);
  elements_.reserve(std::min<uint64_t>(bytes / 3, 1u << 16));
  struct Pending {
    uint32_t element;
    uint64_t children_left;
  };
  std::vector<Pending> stack;
  auto readElement = [&](uint32_t* index) -> bool {
    Element e;
    e.name = static_cast<uint32_t>(r.varint());
    uint64_t attrs = r.varint();
    if (!r.ok() || e.name >= strings_.size() || attrs > r.remaining()) return false;
    e.attributes_begin = static_cast<uint32_t>(attributes_.size());
    e.attributes_count = static_cast<uint32_t>(attrs);
    for (uint64_t i = 0; i < attrs; ++i) {
      uint64_t k = r.varint(), v = r.varint();
      if (!r.ok() || k >= strings_.size() || v >= strings_.size()) return false;
      attributes_.emplace_back(static_cast<uint32_t>(k), static_cast<uint32_t>(v));
    }
    *index = static_cast<uint32_t>(elements_.size());
    elements_.push_back(e);
    uint64_t children = r.varint();
    if (!r.ok() || children > r.remaining() || stack.size() >= kMaxDepth) return false;
    stack.push_back({*index, children});
    return true;
  };
  uint32_t root = 0;
  if (!readElement(&root)) {
    *error = "bad metadata element";
    return false;
  }
  while (!stack.empty()) {
    if (r.offset() > end) break;
    Pending& top = stack.back();
    if (top.children_left == 0) {
      stack.pop_back();
      continue;
    }
    --top.children_left;
    uint32_t parent = top.element, child = 0;
    if (!readElement(&child)) {
      *error = "bad metadata element";
      return false;
    }
    Element& p = elements_[parent];
    (p.last_child == kNone ? p.first_child : elements_[p.last_child].next_sibling) = child;
    p.last_child = child;
  }
  if (!stack.empty() || !r.ok()) {
    *error = "truncated metadata element tree";
    return false;
  }
  return true;
}

bool Metadata::buildClasses(std::string* error) {
  classes_.clear();
  by_id_.clear();
  by_name_.clear();
  auto attr = [&](const Element& e, std::string_view key) -> const std::string* {
    for (uint32_t i = 0; i < e.attributes_count; ++i) {
      auto [k, v] = attributes_[e.attributes_begin + i];
      if (strings_[k] == key) return &strings_[v];
    }
    return nullptr;
  };
  auto name = [&](const Element& e) -> const std::string& { return strings_[e.name]; };
  // Annotations are resolved after all classes are known (they reference classes by id).
  struct PendingAnnotation {
    size_t cls, field;
    uint64_t annotation_class;
    std::string value;
  };
  std::vector<PendingAnnotation> annotations;
  auto next = [&](uint32_t element) { return elements_[element].next_sibling; };
  for (uint32_t top = elements_.empty() ? kNone : elements_[0].first_child; top != kNone; top = next(top)) {
    if (name(elements_[top]) != "metadata") continue;
    for (uint32_t ci = elements_[top].first_child; ci != kNone; ci = next(ci)) {
      const Element& ce = elements_[ci];
      if (name(ce) != "class") continue;
      ClassDesc c;
      const std::string* id = attr(ce, "id");
      const std::string* cname = attr(ce, "name");
      if (!id || !cname || !parseU64(*id, &c.id)) {
        *error = "metadata class without id or name";
        return false;
      }
      c.name = *cname;
      if (const std::string* s = attr(ce, "superType")) c.super_type = *s;
      if (const std::string* s = attr(ce, "simpleType")) c.simple_type = *s == "true";
      c.kind = primitiveKind(c.name);
      for (uint32_t fi = ce.first_child; fi != kNone; fi = next(fi)) {
        const Element& fe = elements_[fi];
        if (name(fe) != "field") continue;
        FieldDesc f;
        const std::string* fname = attr(fe, "name");
        const std::string* ftype = attr(fe, "class");
        if (!fname || !ftype || !parseU64(*ftype, &f.type_id)) {
          *error = "metadata field without name or class in " + c.name;
          return false;
        }
        f.name = *fname;
        if (const std::string* s = attr(fe, "constantPool")) f.constant_pool = *s == "true";
        if (const std::string* s = attr(fe, "dimension")) f.array = *s != "0";
        for (uint32_t ai = fe.first_child; ai != kNone; ai = next(ai)) {
          const Element& ae = elements_[ai];
          uint64_t acls = 0;
          const std::string* aclass = attr(ae, "class");
          const std::string* avalue = attr(ae, "value");
          if (name(ae) == "annotation" && aclass && avalue && parseU64(*aclass, &acls))
            annotations.push_back({classes_.size(), c.fields.size(), acls, *avalue});
        }
        c.fields.push_back(std::move(f));
      }
      by_id_[c.id] = static_cast<int32_t>(classes_.size());
      classes_.push_back(std::move(c));
    }
  }
  for (size_t i = 0; i < classes_.size(); ++i) by_name_.emplace(classes_[i].name, static_cast<int32_t>(i));
  for (const auto& a : annotations) {
    int32_t ac = indexById(a.annotation_class);
    if (ac < 0) continue;
    FieldDesc& f = classes_[a.cls].fields[a.field];
    if (classes_[ac].name == "jdk.jfr.Timespan") f.timespan = unitFromName(a.value);
    if (classes_[ac].name == "jdk.jfr.Timestamp") f.timestamp = unitFromName(a.value);
  }
  return true;
}

void Metadata::resolveTypes() {
  for (auto& c : classes_)
    for (auto& f : c.fields) f.type = indexById(f.type_id);
}

// A struct takes no bytes when all its fields are non-array, non-pool structs that take no bytes.
// Iterated to a fixed point so recursive (malformed) definitions settle instead of recursing.
void Metadata::computeFlatSteps() {
  for (auto& c : classes_) {
    c.flat_steps.clear();
    if (c.kind != Kind::kStruct || c.empty_encoding) continue;
    for (const auto& f : c.fields) {
      char step = 0;
      if (f.type < 0 || f.array) {
        step = 0;
      } else if (f.constant_pool) {
        step = 'v';
      } else {
        switch (classes_[f.type].kind) {
          case Kind::kBoolean:
          case Kind::kByte:
            step = 'b';
            break;
          case Kind::kChar:
          case Kind::kShort:
          case Kind::kInt:
          case Kind::kLong:
            step = 'v';
            break;
          case Kind::kFloat:
            step = '4';
            break;
          case Kind::kDouble:
            step = '8';
            break;
          case Kind::kString:
          case Kind::kStruct:
            break;
        }
      }
      if (step == 0) {
        c.flat_steps.clear();
        break;
      }
      c.flat_steps.push_back(step);
    }
  }
}

void Metadata::computeEmptyEncodings() {
  for (auto& c : classes_) c.empty_encoding = c.kind == Kind::kStruct;
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto& c : classes_) {
      if (!c.empty_encoding) continue;
      for (const auto& f : c.fields) {
        bool empty_field = !f.array && !f.constant_pool && f.type >= 0 && classes_[f.type].empty_encoding;
        if (!empty_field) {
          c.empty_encoding = false;
          changed = true;
          break;
        }
      }
    }
  }
}

}  // namespace proflow::jfr
