#include "core/flat/flat_decode.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>

#include "core/flat/flat_decode_fields.h"
#include "core/flat/sample_row.h"
#include "core/flat/wire.h"
#include "core/util/utf8.h"

namespace proflow::flat {
namespace {

using wire::Reader;
using wire::WireType;
using namespace decode_fields;  // NOLINT(google-build-using-namespace): the field tables

class Decoder {
 public:
  Decoder(Batch& b, const DecodeOptions& o) : b_(b), options_(o) {}

  Status run(std::string_view in) {
    Reader r = reader(in, 0);
    uint32_t f, t;
    while (r.next(&f, &t, kRequestFields)) {
      if (f == 1) {
        if (!resourceProfiles(r.bytes())) break;
      } else if (f == 2) {
        b_.has_dictionary = true;
        if (!dictionary(r.bytes())) break;
      }
    }
    if (r.failed() && error_.empty()) truncated("ExportProfilesServiceRequest");
    if (!claim_refused_.isOk()) return claim_refused_;
    if (!error_.empty()) return Status::invalid("malformed OTLP profiles request: " + error_);
    return Status::ok();
  }

  std::vector<uint32_t> unknown_samples;
  // The most memory held at once (the batch's columns and arena and the decoder's scratch).
  size_t peakBytes() const { return claimed_; }

 private:
  bool fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }
  bool truncated(const char* message) { return fail(std::string(message) + " is truncated or malformed"); }
  // A reader for a message nested `level` deep (the request being 0).
  Reader reader(std::string_view in, int level) const { return Reader(in, level, options_.max_depth); }
  bool count(size_t n) {
    entries_ += n;
    return entries_ <= options_.max_entries || tooMany();
  }
  [[gnu::cold, gnu::noinline]] bool tooMany() {
    return fail("more than " + std::to_string(options_.max_entries) + " entries");
  }
  bool finish(Reader& r, const char* message) {
    if (r.failed()) return error_.empty() ? truncated(message) : false;
    return error_.empty();
  }
  bool utf8(std::string_view s) const { return !options_.check_utf8 || isValidUtf8(s); }
  bool text(std::string_view s, const char* message, Bytes* out) {
    if (!utf8(s)) return fail(std::string(message) + " holds a string that is not valid UTF-8");
    return bytes(s, out);
  }
  bool bytes(std::string_view s, Bytes* out) {
    if (!room(b_.arena, s.size())) return false;
    *out = b_.addBytes(s);
    return true;
  }

  // Makes room for `more` elements in `column` (the batch's or the decoder's scratch), claiming the
  // memory before it is allocated. Every allocation of a decode goes through here, so what it
  // claims is what it holds: the sum of the capacities, plus the old buffer while one is moved.
  template <class C>
  [[gnu::always_inline]] bool room(C& column, size_t more) {
    if (column.capacity() - column.size() >= more) [[likely]] return true;
    return grow(column, more);
  }
  template <class C>
  [[gnu::noinline]] bool grow(C& column, size_t more) {
    const size_t old_bytes = heapBytes(column);
    const size_t want = std::max({column.size() + more, 2 * column.capacity(), size_t{16}});
    if (!claim(held_ + want * sizeof(typename C::value_type) + 1)) return false;  // both buffers while it moves
    column.reserve(want);
    held_ += heapBytes(column) - old_bytes;
    return true;
  }
  // As Batch::memoryBytes counts them: a string's inline buffer is no allocation.
  template <class C>
  static size_t heapBytes(const C& column) {
    if constexpr (std::is_same_v<C, std::string>)
      return column.capacity() > std::string().capacity() ? column.capacity() + 1 : 0;
    else
      return column.capacity() * sizeof(typename C::value_type);
  }
  bool claim(size_t total) {
    if (total <= claimed_) return true;
    claimed_ = total;
    if (!options_.claim_memory) return true;
    Status s = options_.claim_memory(total);
    if (s.isOk()) return true;
    claim_refused_ = std::move(s);
    return fail("memory claim refused");
  }

  // A repeated field's elements stay one range of their column: each repeated field is appended
  // to only while no other field of the same column is (the two that interleave with another,
  // resource attributes with scope attributes and profile attribute indices with sample
  // attributes, are collected aside and placed once), so a run is only ever continued at the end.
  template <class T>
  bool continueRange(const std::vector<T>& column, Range& range) {
    if (range.size == 0) range.begin = static_cast<uint32_t>(column.size());
    return range.end() == column.size() || fail("a repeated field was split by another one of its column");
  }
  // Appends the scratch elements as one range of `column`.
  template <class T>
  bool place(const std::vector<T>& scratch, std::vector<T>& column, Range* range) {
    if (!room(column, scratch.size())) return false;
    *range = Range{static_cast<uint32_t>(column.size()), static_cast<uint32_t>(scratch.size())};
    column.insert(column.end(), scratch.begin(), scratch.end());
    return true;
  }

  // A repeated int32/int64/uint64 field, packed or not, appended to `column` under `range`.
  template <class T>
  bool repeated(Reader& r, uint32_t t, WireType element, const char* message,
                std::vector<T>& column, Range& range) {
    if (!continueRange(column, range)) return false;
    if (t == wire::kLen) {
      std::string_view payload = r.bytes();
      if (r.failed()) return truncated(message);
      if (element == wire::kFixed64) {
        if (payload.size() % 8 != 0) return truncated(message);
        const size_t n = payload.size() / 8;
        if (!count(n) || !room(column, n)) return false;
        const size_t at = column.size();
        column.resize(at + n);
        for (size_t i = 0; i < n; ++i) {
          uint64_t v;
          std::memcpy(&v, payload.data() + 8 * i, 8);
          if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
          column[at + i] = static_cast<T>(v);
        }
        range.size += static_cast<uint32_t>(n);
        return true;
      }
      // One element per byte that ends a varint (+1 for a truncated last one, refused below).
      const size_t n = 1 + static_cast<size_t>(std::count_if(payload.begin(), payload.end(),
                                                             [](char c) { return (c & 0x80) == 0; }));
      if (!room(column, n)) return false;
      Reader p(payload);
      const size_t before = column.size();
      while (!p.done()) column.push_back(static_cast<T>(p.varint()));
      if (p.failed()) return truncated(message);
      range.size += static_cast<uint32_t>(column.size() - before);
      return count(column.size() - before);
    }
    if (!room(column, 1)) return false;
    column.push_back(static_cast<T>(element == wire::kFixed64 ? r.fixed64() : r.varint()));
    ++range.size;
    return count(1);
  }

  bool resourceProfiles(std::string_view in) {
    const auto index = static_cast<uint32_t>(b_.resources.size());
    if (!count(1) || !room(b_.resources, 1)) return false;
    b_.resources.emplace_back();
    // A Resource sent again (protobuf merges it) adds attributes after other scopes' attributes.
    resource_attributes_.clear();
    Reader r = reader(in, 1);
    uint32_t f, t;
    while (r.next(&f, &t, kResourceProfilesFields)) {
      if (f == 1) {
        b_.resources[index].present = true;
        if (!resource(r.bytes(), index)) return false;
      } else if (f == 2) {
        Scope scope;
        if (!scopeProfiles(r.bytes(), &scope) || !room(b_.scopes, 1)) return false;
        b_.addScope(index, scope);
      } else if (f == 3) {
        if (!text(r.bytes(), "ResourceProfiles.schema_url", &b_.resources[index].schema_url)) return false;
      }
    }
    if (!resource_attributes_.empty() && !place(resource_attributes_, b_.key_values, &b_.resources[index].attributes))
      return false;
    return finish(r, "ResourceProfiles");
  }

  bool resource(std::string_view in, uint32_t index) {
    Reader r = reader(in, 2);
    uint32_t f, t;
    while (r.next(&f, &t, kResourceFields)) {
      Resource& res = b_.resources[index];
      if (f == 1) {
        KeyValue kv;
        if (!keyValue(r.bytes(), &kv, 3) || !room(resource_attributes_, 1)) return false;
        resource_attributes_.push_back(kv);
      } else if (f == 2) {
        res.dropped_attributes_count = static_cast<uint32_t>(r.varint());
      } else if (f == 3) {
        std::string_view ref = r.bytes();
        Bytes kept;
        if (!entityRef(ref) || !continueRange(b_.entity_refs, res.entity_refs) || !bytes(ref, &kept) ||
            !room(b_.entity_refs, 1))
          return false;
        b_.entity_refs.push_back(kept);
        ++res.entity_refs.size;
      }
      if (!count(1)) return false;
    }
    return finish(r, "Resource");
  }

  // EntityRef holds strings only; checked and kept as its bytes.
  bool entityRef(std::string_view in) {
    Reader r = reader(in, 3);
    uint32_t f, t;
    while (r.next(&f, &t, kEntityRefFields))
      if (!utf8(r.bytes())) return fail("EntityRef holds a string that is not valid UTF-8");
    return finish(r, "EntityRef");
  }

  bool keyValue(std::string_view in, KeyValue* kv, int depth) {
    Reader r = reader(in, depth);
    uint32_t f, t;
    std::string_view key;  // the last one sent wins: copied once
    value_pieces_.clear();
    while (r.next(&f, &t, kKeyValueFields)) {
      if (f == 1) {
        key = r.bytes();
        if (!utf8(key)) return fail("KeyValue.key holds a string that is not valid UTF-8");
      } else if (f == 2) {
        if (!anyValue(r.bytes(), &kv->value, depth + 1)) return false;
      } else if (f == 3) {
        kv->key_strindex = static_cast<int32_t>(r.varint());
      }
    }
    return finish(r, "KeyValue") && bytes(key, &kv->key) && placeValue(&kv->value);
  }

  // The bytes of a value read by anyValue (the last string, or every piece of a list sent in
  // several parts), copied into the arena once its message is read.
  bool placeValue(Value* v) {
    if (v->kind == ValueKind::kString || v->kind == ValueKind::kBytes)
      return bytes(value_pieces_.empty() ? std::string_view() : value_pieces_.back(), &v->bytes);
    if (v->kind != ValueKind::kArray && v->kind != ValueKind::kKvList) return true;
    size_t total = 0;
    for (std::string_view piece : value_pieces_) total += piece.size();
    if (!room(b_.arena, total)) return false;
    v->bytes = Bytes{static_cast<uint32_t>(b_.arena.size()), static_cast<uint32_t>(total)};
    for (std::string_view piece : value_pieces_) b_.arena.append(piece);
    return true;
  }

  // `depth`: nesting level of the message, the request being 0 (protobuf's recursion limit counts
  // the same way).
  bool tooDeep(int depth) {
    if (depth <= options_.max_depth) return false;
    return fail("AnyValue nests deeper than " + std::to_string(options_.max_depth) + " messages");
  }

  // A value field sent twice merges into the value read so far, as protobuf merges a message: a
  // member of the oneof replaces another, and an array or key-value list sent again is appended to.
  // Its bytes are collected in value_pieces_ (views of the input) and placed by placeValue, so a
  // list sent in n parts costs its size once, not n times.
  bool anyValue(std::string_view in, Value* v, int depth) {
    if (tooDeep(depth)) return false;
    if (v->kind == ValueKind::kAbsent) v->kind = ValueKind::kEmpty;
    Reader r = reader(in, depth);
    uint32_t f, t;
    while (r.next(&f, &t, kAnyValueFields)) {
      switch (f) {
        case 1:
        case 7: {
          std::string_view s = r.bytes();
          if (f == 1 && !utf8(s)) return fail("AnyValue.string_value holds a string that is not valid UTF-8");
          v->kind = f == 1 ? ValueKind::kString : ValueKind::kBytes;
          if (!room(value_pieces_, 1)) return false;
          value_pieces_.assign(1, s);
          break;
        }
        case 2:
        case 3:
        case 8:
          v->kind = f == 2 ? ValueKind::kBool : f == 3 ? ValueKind::kInt : ValueKind::kStrindex;
          v->scalar = static_cast<int64_t>(r.varint());
          if (f == 2) v->scalar = v->scalar != 0;
          if (f == 8) v->scalar = static_cast<int32_t>(v->scalar);
          break;
        case 4:
          v->kind = ValueKind::kDouble;
          v->scalar = static_cast<int64_t>(r.fixed64());
          break;
        case 5:
        case 6: {
          std::string_view nested = r.bytes();
          bool refs = false;
          if (!r.failed() && !nestedList(nested, f == 6, depth + 1, &refs)) return false;
          const ValueKind kind = f == 5 ? ValueKind::kArray : ValueKind::kKvList;
          if (v->kind != kind) {
            v->kind = kind;
            v->nested_refs = false;
            value_pieces_.clear();
          }
          v->nested_refs |= refs;  // both lists' entries, in order
          if (!room(value_pieces_, 1)) return false;
          value_pieces_.push_back(nested);
          break;
        }
      }
    }
    return finish(r, "AnyValue");
  }

  // Checks an encoded ArrayValue (`kv` false) or KeyValueList: structure, UTF-8, depth; tells
  // whether reference-based strings occur inside.
  bool nestedList(std::string_view in, bool kv, int depth, bool* refs) {
    if (tooDeep(depth)) return false;
    Reader r = reader(in, depth);
    uint32_t f, t;
    while (r.next(&f, &t, kListFields)) {
      if (!(kv ? nestedKeyValue(r.bytes(), depth + 1, refs) : nestedValue(r.bytes(), depth + 1, refs))) return false;
    }
    return finish(r, kv ? "KeyValueList" : "ArrayValue");
  }
  bool nestedKeyValue(std::string_view in, int depth, bool* refs) {
    if (tooDeep(depth)) return false;
    Reader r = reader(in, depth);
    uint32_t f, t;
    while (r.next(&f, &t, kKeyValueFields)) {
      if (f == 1) {
        if (!utf8(r.bytes())) return fail("KeyValue.key is not valid UTF-8");
      } else if (f == 2) {
        if (!nestedValue(r.bytes(), depth + 1, refs)) return false;
      } else if (f == 3) {
        *refs |= r.varint() != 0;
      }
    }
    return finish(r, "KeyValue");
  }
  bool nestedValue(std::string_view in, int depth, bool* refs) {
    if (tooDeep(depth)) return false;
    Reader r = reader(in, depth);
    uint32_t f, t;
    while (r.next(&f, &t, kAnyValueFields)) {
      if (f == 1) {
        if (!utf8(r.bytes())) return fail("AnyValue.string_value is not valid UTF-8");
      } else if (f == 5 || f == 6) {
        if (!nestedList(r.bytes(), f == 6, depth + 1, refs)) return false;
      } else if (f == 8) {
        r.varint();
        *refs = true;
      } else {
        r.skip(t, f);
      }
    }
    return finish(r, "AnyValue");
  }

  bool scopeProfiles(std::string_view in, Scope* scope) {
    scope->profiles.begin = static_cast<uint32_t>(b_.profiles.size());
    Reader r = reader(in, 2);
    uint32_t f, t;
    while (r.next(&f, &t, kScopeProfilesFields)) {
      if (f == 1) {
        scope->present = true;
        if (!instrumentationScope(r.bytes(), scope)) return false;
      } else if (f == 2) {
        Profile p;
        if (!profile(r.bytes(), &p) || !room(b_.profiles, 1)) return false;
        b_.profiles.push_back(p);
        ++scope->profiles.size;
        if (!count(1)) return false;
      } else if (f == 3) {
        if (!text(r.bytes(), "ScopeProfiles.schema_url", &scope->schema_url)) return false;
      }
    }
    return finish(r, "ScopeProfiles");
  }

  bool instrumentationScope(std::string_view in, Scope* scope) {
    Reader r = reader(in, 3);
    uint32_t f, t;
    while (r.next(&f, &t, kScopeFields)) {
      if (f == 1 || f == 2) {
        if (!text(r.bytes(), "InstrumentationScope", f == 1 ? &scope->name : &scope->version)) return false;
      } else if (f == 3) {
        KeyValue kv;
        if (!keyValue(r.bytes(), &kv, 4) || !count(1) || !continueRange(b_.key_values, scope->attributes) ||
            !room(b_.key_values, 1))
          return false;
        b_.key_values.push_back(kv);
        ++scope->attributes.size;
      } else if (f == 4) {
        scope->dropped_attributes_count = static_cast<uint32_t>(r.varint());
      }
    }
    return finish(r, "InstrumentationScope");
  }

  bool valueType(std::string_view in, ValueType* vt) {
    vt->present = true;
    Reader r = reader(in, 4);
    uint32_t f, t;
    while (r.next(&f, &t, kValueTypeFields))
      (f == 1 ? vt->type_strindex : vt->unit_strindex) = static_cast<int32_t>(r.varint());
    return finish(r, "ValueType");
  }

  bool profile(std::string_view in, Profile* p) {
    p->samples.begin = static_cast<uint32_t>(b_.samples.size());
    // Profile.attribute_indices may alternate with samples, whose attributes share the column.
    profile_attributes_.clear();
    Range attributes;
    Reader r = reader(in, 3);
    uint32_t f, t;
    while (r.next(&f, &t, kProfileFields)) {
      switch (f) {
        case 1:
        case 5:
          if (!valueType(r.bytes(), f == 1 ? &p->sample_type : &p->period_type)) return false;
          break;
        case 2:
          if (!sample(r.bytes())) return false;
          ++p->samples.size;
          break;
        case 3:
          p->time_unix_nano = r.fixed64();
          break;
        case 4:
        case 6:
        case 8:
          if (f == 4) p->duration_nano = r.varint();
          else if (f == 6) p->period = static_cast<int64_t>(r.varint());
          else p->dropped_attributes_count = static_cast<uint32_t>(r.varint());
          break;
        case 7:
        case 10:
          if (!bytes(r.bytes(), f == 7 ? &p->profile_id : &p->original_payload)) return false;
          break;
        case 9:
          if (!text(r.bytes(), "Profile.original_payload_format", &p->original_payload_format))
            return false;
          break;
        case 11:
          if (!repeated(r, t, wire::kVarint, "Profile", profile_attributes_, attributes)) return false;
          break;
      }
    }
    if (!profile_attributes_.empty() && !place(profile_attributes_, b_.indices, &p->attributes)) return false;
    return finish(r, "Profile");
  }

  // A Sample row. Its unknown fields (fields of the wrong wire type among them, as protobuf reads
  // them) are how a pre-v1.10 sender shows, and validation then names the layout change.
  bool sample(std::string_view in) {
    int32_t stack = 0, link = 0;
    Range attributes, values, timestamps;
    Reader r = reader(in, 4);
    uint32_t f, t;
    while (r.next(&f, &t, kSampleFields)) {
      if (f == 1) {
        stack = static_cast<int32_t>(r.varint());
      } else if (f == 2) {
        if (!repeated(r, t, wire::kVarint, "Sample", b_.indices, attributes)) return false;
      } else if (f == 3) {
        link = static_cast<int32_t>(r.varint());
      } else if (f == 4) {
        if (!repeated(r, t, wire::kVarint, "Sample", b_.values, values)) return false;
      } else {
        if (!repeated(r, t, wire::kFixed64, "Sample", b_.timestamps, timestamps)) return false;
      }
    }
    if (!finish(r, "Sample") || !count(1)) return false;
    if (r.skippedUnknown() && !room(unknown_samples, 1)) return false;
    if (r.skippedUnknown()) unknown_samples.push_back(static_cast<uint32_t>(b_.samples.size()));
    auto& s = b_.samples;
    if (!room(s.stack_index, 1) || !room(s.link_index, 1) || !room(s.attributes, 1) || !room(s.values, 1) ||
        !room(s.timestamps, 1))
      return false;
    appendSampleRow(s, stack, link, attributes, values, timestamps);
    return true;
  }

  bool dictionary(std::string_view in) {
    Reader r = reader(in, 1);
    uint32_t f, t;
    while (r.next(&f, &t, kDictionaryFields)) {
      if (!count(1)) return false;
      std::string_view entry = r.bytes();
      if (r.failed()) break;
      bool ok = true;
      switch (f) {
        case 1: ok = mapping(entry); break;
        case 2: ok = location(entry); break;
        case 3: ok = function(entry); break;
        case 4: ok = link(entry); break;
        case 5: {
          Bytes s;
          ok = text(entry, "ProfilesDictionary.string_table", &s) && room(b_.strings, 1);
          if (ok) b_.strings.push_back(s);
          break;
        }
        case 6: ok = attribute(entry); break;
        case 7: ok = stack(entry); break;
      }
      if (!ok) return false;
    }
    return finish(r, "ProfilesDictionary");
  }

  bool mapping(std::string_view in) {
    Mapping m;
    Reader r = reader(in, 2);
    uint32_t f, t;
    while (r.next(&f, &t, kMappingFields)) {
      if (f >= 1 && f <= 4) {
        const uint64_t v = r.varint();
        if (f == 1) m.memory_start = v;
        else if (f == 2) m.memory_limit = v;
        else if (f == 3) m.file_offset = v;
        else m.filename_strindex = static_cast<int32_t>(v);
      } else if (f == 5) {
        if (!repeated(r, t, wire::kVarint, "Mapping", b_.indices, m.attributes)) return false;
      }
    }
    if (!finish(r, "Mapping") || !room(b_.mappings, 1)) return false;
    b_.mappings.push_back(m);
    return true;
  }

  bool location(std::string_view in) {
    Location l;
    Reader r = reader(in, 2);
    uint32_t f, t;
    while (r.next(&f, &t, kLocationFields)) {
      if (f == 1 || f == 2) {
        if (f == 1) l.mapping_index = static_cast<int32_t>(r.varint());
        else l.address = r.varint();
      } else if (f == 3) {
        Line line;
        if (!lineEntry(r.bytes(), &line) || !count(1) || !continueRange(b_.lines, l.lines) || !room(b_.lines, 1))
          return false;
        b_.lines.push_back(line);
        ++l.lines.size;
      } else if (f == 4) {
        if (!repeated(r, t, wire::kVarint, "Location", b_.indices, l.attributes)) return false;
      }
    }
    if (!finish(r, "Location") || !room(b_.locations, 1)) return false;
    b_.locations.push_back(l);
    return true;
  }

  bool lineEntry(std::string_view in, Line* line) {
    Reader r = reader(in, 3);
    uint32_t f, t;
    while (r.next(&f, &t, kLineFields)) {
      const uint64_t v = r.varint();
      if (f == 1) line->function_index = static_cast<int32_t>(v);
      else if (f == 2) line->line = static_cast<int64_t>(v);
      else line->column = static_cast<int64_t>(v);
    }
    return finish(r, "Line");
  }

  bool function(std::string_view in) {
    Function fn;
    Reader r = reader(in, 2);
    uint32_t f, t;
    while (r.next(&f, &t, kFunctionFields)) {
      const uint64_t v = r.varint();
      if (f == 1) fn.name_strindex = static_cast<int32_t>(v);
      else if (f == 2) fn.system_name_strindex = static_cast<int32_t>(v);
      else if (f == 3) fn.filename_strindex = static_cast<int32_t>(v);
      else fn.start_line = static_cast<int64_t>(v);
    }
    if (!finish(r, "Function") || !room(b_.functions, 1)) return false;
    b_.functions.push_back(fn);
    return true;
  }

  bool link(std::string_view in) {
    Link l;
    Reader r = reader(in, 2);
    uint32_t f, t;
    while (r.next(&f, &t, kLinkFields))
      if (!bytes(r.bytes(), f == 1 ? &l.trace_id : &l.span_id)) return false;
    if (!finish(r, "Link") || !room(b_.links, 1)) return false;
    b_.links.push_back(l);
    return true;
  }

  bool attribute(std::string_view in) {
    Attribute a;
    Reader r = reader(in, 2);
    uint32_t f, t;
    value_pieces_.clear();
    while (r.next(&f, &t, kAttributeFields)) {
      if (f == 1 || f == 3) {
        (f == 1 ? a.key_strindex : a.unit_strindex) = static_cast<int32_t>(r.varint());
      } else if (f == 2) {
        if (!anyValue(r.bytes(), &a.value, 3)) return false;
      }
    }
    if (!finish(r, "KeyValueAndUnit") || !placeValue(&a.value) || !room(b_.attributes, 1)) return false;
    b_.attributes.push_back(a);
    return true;
  }

  bool stack(std::string_view in) {
    Stack s;
    Reader r = reader(in, 2);
    uint32_t f, t;
    while (r.next(&f, &t, kStackFields)) {
      if (f == 1) {
        if (!repeated(r, t, wire::kVarint, "Stack", b_.indices, s.locations)) return false;
      }
    }
    if (!finish(r, "Stack") || !room(b_.stacks, 1)) return false;
    b_.stacks.push_back(s);
    return true;
  }

  Batch& b_;
  const DecodeOptions& options_;
  std::string error_;
  Status claim_refused_;
  size_t entries_ = 0;
  size_t held_ = 0;     // bytes of every buffer the decode allocated (capacities)
  size_t claimed_ = 0;  // the most held at once, with a buffer being moved
  // Collected aside, placed once (see continueRange and anyValue).
  std::vector<KeyValue> resource_attributes_;
  std::vector<int32_t> profile_attributes_;
  std::vector<std::string_view> value_pieces_;
};

}  // namespace


DecodeResult decode(std::string_view wire, Batch* out, const DecodeOptions& options) {
  out->clear();
  DecodeResult result;
  if (wire.size() > UINT32_MAX) {  // arena offsets and column ranges are 32-bit
    result.request = Status::invalid("OTLP profiles request larger than 4 GiB");
    return result;
  }
  Decoder decoder(*out, options);
  result.request = decoder.run(wire);
  result.peak_memory_bytes = decoder.peakBytes();
  if (!result.request.isOk()) {
    out->clear();
    return result;
  }
  if (options.validate) {
    result = validateAndPrune(out, decoder.unknown_samples);
    result.peak_memory_bytes = decoder.peakBytes();
    if (!result.request.isOk()) out->clear();
  } else {
    result.samples_with_unknown_fields = std::move(decoder.unknown_samples);
  }
  return result;
}

}  // namespace proflow::flat
