// Flat batch -> OTLP/JSON, written as protobuf's JSON printer writes the same message: fields in
// field-number order, proto3 defaults omitted (a set oneof member and a present message are written
// even when zero or empty), 64-bit integers quoted, bytes in base64 and OTLP's ids in hex.
#include <bit>
#include <vector>

#include "core/flat/wire.h"
#include "core/formats/otlp_json/otlp_json.h"
#include "core/util/json/json_writer.h"

namespace proflow::otlp_json {
namespace {

using flat::ValueKind;
namespace wire = flat::wire;

constexpr uint8_t V = wire::accepts(wire::kVarint), L = wire::accepts(wire::kLen), F64 = wire::accepts(wire::kFixed64);
constexpr uint8_t kAnyValueFields[] = {0, L, V, V, F64, L, L, L, V};
constexpr uint8_t kKeyValueFields[] = {0, L, L, V};
constexpr uint8_t kListFields[] = {0, L};
constexpr uint8_t kEntityRefFields[] = {0, L, L, L, L};

// An AnyValue as protobuf holds it after parsing its (possibly repeated, i.e. merged) encodings:
// the last member of the oneof wins, and a list member sent again appends to the list.
struct AnyValueState {
  ValueKind kind = ValueKind::kEmpty;
  int64_t scalar = 0;
  std::string_view bytes;                // string / bytes
  std::vector<std::string_view> chunks;  // array / kvlist: encoded list bodies, in order
};

void feedAnyValue(std::string_view body, AnyValueState* s) {
  wire::Reader r(body);
  uint32_t f, t;
  while (r.next(&f, &t, kAnyValueFields)) {
    ValueKind kind = ValueKind::kEmpty;
    switch (f) {
      case 1: kind = ValueKind::kString; s->bytes = r.bytes(); break;
      case 2: kind = ValueKind::kBool; s->scalar = r.varint() != 0; break;
      case 3: kind = ValueKind::kInt; s->scalar = static_cast<int64_t>(r.varint()); break;
      case 4: kind = ValueKind::kDouble; s->scalar = static_cast<int64_t>(r.fixed64()); break;
      case 5:
      case 6:
        kind = f == 5 ? ValueKind::kArray : ValueKind::kKvList;
        if (s->kind != kind) s->chunks.clear();
        s->chunks.push_back(r.bytes());
        break;
      case 7: kind = ValueKind::kBytes; s->bytes = r.bytes(); break;
      case 8: kind = ValueKind::kStrindex; s->scalar = static_cast<int32_t>(r.varint()); break;
    }
    if (kind != ValueKind::kArray && kind != ValueKind::kKvList) s->chunks.clear();
    s->kind = kind;
  }
}

class JsonEncoder {
 public:
  JsonEncoder(const flat::Batch& b, std::string* out) : b_(b), w_(out) {}

  void run() {
    w_.beginObject();
    if (!b_.resources.empty()) {
      w_.key("resourceProfiles").beginArray();
      for (const flat::Resource& r : b_.resources) resourceProfiles(r);
      w_.endArray();
    }
    if (b_.has_dictionary) {
      w_.key("dictionary");
      dictionary();
    }
    w_.endObject();
  }

 private:
  std::string_view view(flat::Bytes bytes) const { return b_.view(bytes); }

  void string(const char* key, flat::Bytes s) {
    if (s.size > 0) w_.key(key).string(view(s));
  }
  void int32(const char* key, int64_t v) {
    if (v != 0) w_.key(key).int64(v);
  }
  void quoted(const char* key, int64_t v) {
    if (v != 0) w_.key(key).quotedInt64(v);
  }
  void quotedUnsigned(const char* key, uint64_t v) {
    if (v != 0) w_.key(key).quotedUint64(v);
  }
  void hex(const char* key, flat::Bytes id) {
    if (id.size > 0) w_.key(key).hex(view(id));
  }
  void base64(const char* key, std::string_view bytes) { w_.key(key).base64(bytes); }
  void indexList(const char* key, flat::Range r) {
    if (r.size == 0) return;
    w_.key(key).beginArray();
    for (int32_t i : b_.indexList(r)) w_.int64(i);
    w_.endArray();
  }

  void resourceProfiles(const flat::Resource& r) {
    w_.beginObject();
    if (r.present) {
      w_.key("resource").beginObject();
      keyValues(r.attributes);
      int32("droppedAttributesCount", r.dropped_attributes_count);
      if (r.entity_refs.size > 0) {
        w_.key("entityRefs").beginArray();
        for (flat::Bytes ref : flat::Batch::slice(b_.entity_refs, r.entity_refs)) entityRef(view(ref));
        w_.endArray();
      }
      w_.endObject();
    }
    if (r.scope_count > 0) {
      w_.key("scopeProfiles").beginArray();
      b_.forEachScope(r, [&](uint32_t s) { scopeProfiles(b_.scopes[s]); });
      w_.endArray();
    }
    string("schemaUrl", r.schema_url);
    w_.endObject();
  }

  void entityRef(std::string_view body) {
    std::string_view schema_url, type;
    std::vector<std::string_view> id_keys, description_keys;
    wire::Reader r(body);
    uint32_t f, t;
    while (r.next(&f, &t, kEntityRefFields)) {
      const std::string_view s = r.bytes();
      if (f == 1) schema_url = s;
      else if (f == 2) type = s;
      else (f == 3 ? id_keys : description_keys).push_back(s);
    }
    w_.beginObject();
    if (!schema_url.empty()) w_.key("schemaUrl").string(schema_url);
    if (!type.empty()) w_.key("type").string(type);
    for (auto [key, list] : {std::pair{"idKeys", &id_keys}, std::pair{"descriptionKeys", &description_keys}}) {
      if (list->empty()) continue;
      w_.key(key).beginArray();
      for (std::string_view s : *list) w_.string(s);
      w_.endArray();
    }
    w_.endObject();
  }

  void keyValues(flat::Range range) {
    if (range.size == 0) return;
    w_.key("attributes").beginArray();
    for (const flat::KeyValue& kv : flat::Batch::slice(b_.key_values, range)) {
      w_.beginObject();
      string("key", kv.key);
      if (kv.value.kind != ValueKind::kAbsent) {
        w_.key("value");
        value(kv.value);
      }
      int32("keyStrindex", kv.key_strindex);
      w_.endObject();
    }
    w_.endArray();
  }

  void value(const flat::Value& v) {
    AnyValueState s;
    s.kind = v.kind;
    s.scalar = v.scalar;
    if (v.kind == ValueKind::kArray || v.kind == ValueKind::kKvList) s.chunks.push_back(view(v.bytes));
    else s.bytes = view(v.bytes);
    anyValue(s);
  }

  void anyValue(const AnyValueState& s) {
    w_.beginObject();
    switch (s.kind) {
      case ValueKind::kString: w_.key("stringValue").string(s.bytes); break;
      case ValueKind::kBool: w_.key("boolValue").boolean(s.scalar != 0); break;
      case ValueKind::kInt: w_.key("intValue").quotedInt64(s.scalar); break;
      case ValueKind::kDouble: w_.key("doubleValue").number(std::bit_cast<double>(s.scalar)); break;
      case ValueKind::kArray:
      case ValueKind::kKvList: list(s.kind == ValueKind::kKvList, s.chunks); break;
      case ValueKind::kBytes: base64("bytesValue", s.bytes); break;
      case ValueKind::kStrindex: w_.key("stringValueStrindex").int64(static_cast<int32_t>(s.scalar)); break;
      case ValueKind::kAbsent:
      case ValueKind::kEmpty: break;
    }
    w_.endObject();
  }

  // An ArrayValue or KeyValueList from its encoded bodies (one per time it was sent).
  void list(bool kv, const std::vector<std::string_view>& chunks) {
    w_.key(kv ? "kvlistValue" : "arrayValue").beginObject();
    bool any = false;
    for (std::string_view chunk : chunks) {
      wire::Reader r(chunk);
      uint32_t f, t;
      while (r.next(&f, &t, kListFields)) {
        if (!any) w_.key("values").beginArray();
        any = true;
        if (kv) {
          nestedKeyValue(r.bytes());
        } else {
          AnyValueState element;
          feedAnyValue(r.bytes(), &element);
          anyValue(element);
        }
      }
    }
    if (any) w_.endArray();
    w_.endObject();
  }

  void nestedKeyValue(std::string_view body) {
    std::string_view key;
    int32_t key_strindex = 0;
    bool has_value = false;
    AnyValueState value;
    wire::Reader r(body);
    uint32_t f, t;
    while (r.next(&f, &t, kKeyValueFields)) {
      if (f == 1) {
        key = r.bytes();
      } else if (f == 2) {
        has_value = true;
        feedAnyValue(r.bytes(), &value);  // a value sent twice: merged
      } else {
        key_strindex = static_cast<int32_t>(r.varint());
      }
    }
    w_.beginObject();
    if (!key.empty()) w_.key("key").string(key);
    if (has_value) {
      w_.key("value");
      anyValue(value);
    }
    int32("keyStrindex", key_strindex);
    w_.endObject();
  }

  void scopeProfiles(const flat::Scope& s) {
    w_.beginObject();
    if (s.present) {
      w_.key("scope").beginObject();
      string("name", s.name);
      string("version", s.version);
      keyValues(s.attributes);
      int32("droppedAttributesCount", s.dropped_attributes_count);
      w_.endObject();
    }
    if (s.profiles.size > 0) {
      w_.key("profiles").beginArray();
      for (const flat::Profile& p : flat::Batch::slice(b_.profiles, s.profiles)) profile(p);
      w_.endArray();
    }
    string("schemaUrl", s.schema_url);
    w_.endObject();
  }

  void valueType(const char* key, const flat::ValueType& vt) {
    if (!vt.present) return;
    w_.key(key).beginObject();
    int32("typeStrindex", vt.type_strindex);
    int32("unitStrindex", vt.unit_strindex);
    w_.endObject();
  }

  void profile(const flat::Profile& p) {
    w_.beginObject();
    valueType("sampleType", p.sample_type);
    if (p.samples.size > 0) {
      w_.key("samples").beginArray();
      for (uint32_t row = p.samples.begin; row < p.samples.end(); ++row) sample(row);
      w_.endArray();
    }
    quotedUnsigned("timeUnixNano", p.time_unix_nano);
    quotedUnsigned("durationNano", p.duration_nano);
    valueType("periodType", p.period_type);
    quoted("period", p.period);
    hex("profileId", p.profile_id);
    int32("droppedAttributesCount", p.dropped_attributes_count);
    string("originalPayloadFormat", p.original_payload_format);
    if (p.original_payload.size > 0) base64("originalPayload", view(p.original_payload));
    indexList("attributeIndices", p.attributes);
    w_.endObject();
  }

  void sample(uint32_t row) {
    const flat::SampleColumns& c = b_.samples;
    w_.beginObject();
    int32("stackIndex", c.stack_index[row]);
    indexList("attributeIndices", c.attributes[row]);
    int32("linkIndex", c.link_index[row]);
    if (c.values[row].size > 0) {
      w_.key("values").beginArray();
      for (int64_t v : flat::Batch::slice(b_.values, c.values[row])) w_.quotedInt64(v);
      w_.endArray();
    }
    if (c.timestamps[row].size > 0) {
      w_.key("timestampsUnixNano").beginArray();
      for (uint64_t t : flat::Batch::slice(b_.timestamps, c.timestamps[row])) w_.quotedUint64(t);
      w_.endArray();
    }
    w_.endObject();
  }

  template <class T, class Fn>
  void table(const char* key, const std::vector<T>& rows, Fn&& fn) {
    if (rows.empty()) return;
    w_.key(key).beginArray();
    for (const T& row : rows) {
      w_.beginObject();
      fn(row);
      w_.endObject();
    }
    w_.endArray();
  }

  void dictionary() {
    w_.beginObject();
    table("mappingTable", b_.mappings, [&](const flat::Mapping& m) {
      quotedUnsigned("memoryStart", m.memory_start);
      quotedUnsigned("memoryLimit", m.memory_limit);
      quotedUnsigned("fileOffset", m.file_offset);
      int32("filenameStrindex", m.filename_strindex);
      indexList("attributeIndices", m.attributes);
    });
    table("locationTable", b_.locations, [&](const flat::Location& l) {
      int32("mappingIndex", l.mapping_index);
      quotedUnsigned("address", l.address);
      if (l.lines.size > 0) {
        w_.key("lines").beginArray();
        for (const flat::Line& line : flat::Batch::slice(b_.lines, l.lines)) {
          w_.beginObject();
          int32("functionIndex", line.function_index);
          quoted("line", line.line);
          quoted("column", line.column);
          w_.endObject();
        }
        w_.endArray();
      }
      indexList("attributeIndices", l.attributes);
    });
    table("functionTable", b_.functions, [&](const flat::Function& f) {
      int32("nameStrindex", f.name_strindex);
      int32("systemNameStrindex", f.system_name_strindex);
      int32("filenameStrindex", f.filename_strindex);
      quoted("startLine", f.start_line);
    });
    table("linkTable", b_.links, [&](const flat::Link& l) {
      hex("traceId", l.trace_id);
      hex("spanId", l.span_id);
    });
    if (!b_.strings.empty()) {
      w_.key("stringTable").beginArray();
      for (flat::Bytes s : b_.strings) w_.string(view(s));
      w_.endArray();
    }
    table("attributeTable", b_.attributes, [&](const flat::Attribute& a) {
      int32("keyStrindex", a.key_strindex);
      if (a.value.kind != ValueKind::kAbsent) {
        w_.key("value");
        value(a.value);
      }
      int32("unitStrindex", a.unit_strindex);
    });
    table("stackTable", b_.stacks, [&](const flat::Stack& s) { indexList("locationIndices", s.locations); });
    w_.endObject();
  }

  const flat::Batch& b_;
  json::Writer w_;
};

}  // namespace

void encode(const flat::Batch& batch, std::string* out) {
  out->clear();
  JsonEncoder(batch, out).run();
}

std::string encode(const flat::Batch& batch) {
  std::string out;
  encode(batch, &out);
  return out;
}

}  // namespace proflow::otlp_json
