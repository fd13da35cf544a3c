// OTLP/JSON -> flat batch: one pass of the bounded pull reader, each message read by a function that
// knows its fields (both spellings of each name), straight into the batch's columns and arena.
#include <bit>
#include <charconv>
#include <limits>
#include <cmath>
#include <string>

#include "core/flat/sample_row.h"
#include "core/flat/range_append.h"
#include "core/flat/wire.h"
#include "core/formats/otlp_json/json_fields.h"
#include "core/formats/otlp_json/otlp_json.h"
#include "core/util/hex.h"
#include "core/util/json/json_reader.h"

namespace proflow::otlp_json {
namespace {

using json::Token;
using namespace fields;  // NOLINT(google-build-using-namespace): the field tables
using flat::prepareAppend;
using flat::Range;
using flat::ValueKind;

class Decoder {
 public:
  Decoder(std::string_view in, flat::Batch& b, const DecodeLimits& limits)
      : r_(in, json::Limits{.max_bytes = limits.max_bytes, .max_depth = limits.max_depth,
                            .max_values = limits.max_values, .max_string_bytes = limits.max_bytes}),
        b_(b), limits_(limits) {}

  Status run() {
    const Token t = next();
    if (t == Token::kBeginObject || t == Token::kError) {
      object(t, "ExportProfilesServiceRequest", kRequest, [&](uint32_t f, Token v) {
        if (f == 1) return repeated(v, [&](Token e) { return resourceProfiles(e); });
        if (v == Token::kNull) return true;
        b_.has_dictionary = true;
        return dictionary(v);
      });
    } else {
      fail("the document is not a JSON object");
    }
    if (error_.empty() && next() != Token::kEnd && error_.empty()) fail("data after the document");
    if (error_.empty()) claimNow();
    if (error_.empty()) return Status::ok();
    if (error_code_ != StatusCode::kInvalidArgument) return Status(error_code_, error_);  // the claim's refusal
    return Status::invalid("invalid OTLP/JSON: " + error_);
  }

  std::vector<uint32_t> unknown_samples;

 private:
  // ---- reading -------------------------------------------------------------------------------
  Token next() {
    const Token t = r_.next();
    if (t == Token::kError && error_.empty()) error_ = r_.error().message().substr(std::string_view("invalid JSON: ").size());
    return t;
  }
  bool skipValue(Token first) {
    if (r_.skip(first)) return true;
    if (error_.empty()) error_ = r_.error().message().substr(std::string_view("invalid JSON: ").size());
    return false;
  }
  bool fail(const std::string& what) {
    if (error_.empty()) error_ = what + " at byte " + std::to_string(r_.offset());
    return false;
  }
  bool invalid(const char* message, const char* field, std::string_view why) {
    return fail(std::string(message) + "." + field + ": " + std::string(why));
  }
  bool count(size_t n = 1) {
    entries_ += n;
    if (entries_ < next_claim_) return true;
    next_claim_ = entries_ + 4096;
    return claimNow();
  }
  bool claimNow() {
    // Columns grow by doubling: the batch's memory and its next growth.
    const size_t holds = 2 * b_.memoryBytes();
    if (Status s = withinBounds(holds); !s.isOk()) {
      error_code_ = s.code();
      if (error_.empty()) error_ = s.message();
      return false;
    }
    if (!limits_.claim) return true;
    if (Status s = limits_.claim(holds); !s.isOk()) {
      error_code_ = s.code();
      if (error_.empty()) error_ = s.message();
      return false;
    }
    return true;
  }

  // Checked as the batch grows, so a document that decodes into far more than its size is refused
  // once it has been read that far, before the rest of it is built.
  Status withinBounds(size_t holds) const {
    const size_t read = r_.offset();
    if (holds > kMaxDecodeBytesPerJsonByte * read + kDecodeBytesBase)
      return Status::tooLarge("OTLP/JSON request decodes into more than " + std::to_string(kMaxDecodeBytesPerJsonByte) +
                              " bytes of memory per byte (" + std::to_string(holds) + " bytes after " +
                              std::to_string(read) + " bytes read): refused");
    if (limits_.max_memory > 0 && holds > limits_.max_memory)
      return Status::tooLarge("OTLP/JSON request needs more than " + std::to_string(limits_.max_memory) +
                              " bytes of memory once decoded (" + limits_.max_memory_key + "): refused");
    return Status::ok();
  }

  // Reads the object that `first` opened, calling on_field(field number, first token of its value)
  // for each known field; unknown fields are skipped. null: the message is absent (nothing called).
  template <size_t N, class OnField>
  bool object(Token first, const char* message, const FieldName (&names)[N], OnField&& on_field, bool* unknown = nullptr) {
    if (first == Token::kNull) return true;
    if (first == Token::kError) return false;
    if (first != Token::kBeginObject) return fail(std::string(message) + ": expected an object");
    for (Token t = next(); t != Token::kEndObject; t = next()) {
      if (t == Token::kError) return false;
      if (r_.text().empty()) return fail(std::string(message) + ": a field name is empty");  // as protobuf refuses it
      const uint32_t f = fieldOf(names, r_.text());
      const Token v = next();
      if (v == Token::kError) return false;
      if (f == 0) {
        if (unknown) *unknown = true;
        if (!skipValue(v)) return false;
        continue;
      }
      if (!on_field(f, v)) return false;
    }
    return true;
  }

  // A repeated field: a list (null elements skipped), or one value as a list of one, or null.
  template <class OnElement>
  bool repeated(Token first, OnElement&& on_element) {
    if (first == Token::kNull) return true;
    if (first != Token::kBeginArray) return on_element(first);
    for (Token t = next(); t != Token::kEndArray; t = next()) {
      if (t == Token::kError) return false;
      if (t == Token::kNull) continue;
      if (!on_element(t)) return false;
    }
    return true;
  }

  template <class T>
  bool integerField(Token t, const char* message, const char* field, T* out) {
    if (t == Token::kNull) return *out = 0, true;
    if (integer(t, r_.text(), out)) return true;
    return invalid(message, field, "invalid integer " + quoted(t));
  }
  std::string quoted(Token t) const {
    const std::string_view text = r_.text().substr(0, 64);
    if (t == Token::kString) return "\"" + std::string(text) + "\"";
    if (t == Token::kNumber) return std::string(text);
    return t == Token::kTrue ? "true" : t == Token::kFalse ? "false" : t == Token::kBeginArray ? "(an array)" : "(an object)";
  }
  template <class T>
  bool integerList(Token first, const char* message, const char* field, std::vector<T>& column, Range& range) {
    prepareAppend(column, range);
    return repeated(first, [&](Token t) {
      T v;
      if (!integerField(t, message, field, &v)) return false;
      column.push_back(v);
      ++range.size;
      return count();
    });
  }

  bool stringField(Token t, const char* message, const char* field, std::string_view* out) {
    if (t == Token::kNull) return *out = {}, true;
    if (t != Token::kString) return invalid(message, field, "expected a string, found " + quoted(t));
    *out = r_.text();
    return true;
  }
  bool text(Token t, const char* message, const char* field, flat::Bytes* out) {
    std::string_view s;
    if (!stringField(t, message, field, &s)) return false;
    *out = b_.addBytes(s);
    return true;
  }
  bool bytesField(Token t, const char* message, const char* field, std::string* out) {
    out->clear();
    if (t == Token::kNull) return true;
    if (t != Token::kString || !json::decodeBase64(r_.text(), out))
      return invalid(message, field, "expected base64 bytes, found " + quoted(t));
    return true;
  }
  bool hexId(Token t, const char* message, const char* field, flat::Bytes* out) {
    if (t == Token::kNull) return *out = {}, true;
    if (t != Token::kString) return invalid(message, field, "expected a hex string, found " + quoted(t));
    const std::string_view hex = r_.text();
    for (char c : hex)
      if (!isHexDigit(c)) return invalid(message, field, std::string("must be a hex string, found '") + c + "'");
    if (hex.size() % 2 != 0)
      return invalid(message, field, "must be a hex string with an even number of digits, got " + std::to_string(hex.size()));
    out->offset = static_cast<uint32_t>(b_.arena.size());
    out->size = static_cast<uint32_t>(hex.size() / 2);
    for (size_t i = 0; i < hex.size(); i += 2)
      b_.arena.push_back(static_cast<char>(hexDigitValue(hex[i]) * 16 + hexDigitValue(hex[i + 1])));
    return true;
  }
  bool boolField(Token t, const char* message, const char* field, bool* out) {
    if (t == Token::kTrue || t == Token::kFalse || t == Token::kNull) return *out = t == Token::kTrue, true;
    if (t == Token::kString && boolText(r_.text(), out)) return true;
    return invalid(message, field, "expected true or false, found " + quoted(t));
  }
  bool doubleField(Token t, const char* message, const char* field, double* out) {
    if (t == Token::kNull) return *out = 0, true;
    const std::string_view s = r_.text();
    if (t == Token::kString) {
      if (s == "NaN") return *out = std::numeric_limits<double>::quiet_NaN(), true;
      if (s == "Infinity") return *out = std::numeric_limits<double>::infinity(), true;
      if (s == "-Infinity") return *out = -std::numeric_limits<double>::infinity(), true;
    }
    const bool numeric = !s.empty() && s.find_first_not_of("0123456789+-.eE") == std::string_view::npos;
    if ((t == Token::kNumber || t == Token::kString) && numeric && json::parseDouble(s, out) && std::isfinite(*out))
      return true;
    return invalid(message, field, "invalid double " + quoted(t));
  }

  // ---- messages ------------------------------------------------------------------------------
  bool resourceProfiles(Token first) {
    const auto index = static_cast<uint32_t>(b_.resources.size());
    b_.resources.emplace_back();
    if (!count()) return false;
    bool ok = object(first, "ResourceProfiles", kResourceProfiles, [&](uint32_t f, Token v) {
      if (f == 1) {
        if (v == Token::kNull) return true;
        b_.resources[index].present = true;
        return resource(v, index);
      }
      if (f == 2) {
        return repeated(v, [&](Token e) {
          flat::Scope scope;
          if (!scopeProfiles(e, &scope)) return false;
          b_.addScope(index, scope);
          return true;
        });
      }
      return text(v, "ResourceProfiles", "schemaUrl", &b_.resources[index].schema_url);
    });
    return ok;
  }

  bool resource(Token first, uint32_t index) {
    return object(first, "Resource", kResource, [&](uint32_t f, Token v) {
      flat::Resource& res = b_.resources[index];
      if (f == 1) return keyValues(v, &res.attributes);
      if (f == 2) return integerField(v, "Resource", "droppedAttributesCount", &res.dropped_attributes_count);
      prepareAppend(b_.entity_refs, b_.resources[index].entity_refs);
      return repeated(v, [&](Token e) {
        std::string ref;
        if (!entityRef(e, &ref)) return false;
        b_.entity_refs.push_back(b_.addBytes(ref));
        ++b_.resources[index].entity_refs.size;
        return count();
      });
    });
  }

  // EntityRef holds strings only: kept as its protobuf encoding, as the flat batch keeps it.
  bool entityRef(Token first, std::string* out) {
    std::string keys;  // fields 3 and 4, encoded in order
    std::string description_keys;
    bool ok = object(first, "EntityRef", kEntityRef, [&](uint32_t f, Token v) {
      if (f == 1 || f == 2) {
        std::string_view s;
        if (!stringField(v, "EntityRef", f == 1 ? "schemaUrl" : "type", &s)) return false;
        (f == 1 ? schema_owned_ : type_owned_).assign(s);
        return true;
      }
      return repeated(v, [&](Token e) {
        std::string_view s;
        if (!stringField(e, "EntityRef", f == 3 ? "idKeys" : "descriptionKeys", &s)) return false;
        appendLenField(f == 3 ? keys : description_keys, f, s);
        return count();
      });
    });
    if (!ok) return false;
    if (!schema_owned_.empty()) appendLenField(*out, 1, schema_owned_);
    if (!type_owned_.empty()) appendLenField(*out, 2, type_owned_);
    out->append(keys);
    out->append(description_keys);
    schema_owned_.clear();
    type_owned_.clear();
    return true;
  }

  bool keyValues(Token first, Range* range) {
    prepareAppend(b_.key_values, *range);
    return repeated(first, [&](Token e) {
      flat::KeyValue kv;
      if (!keyValue(e, &kv)) return false;
      b_.key_values.push_back(kv);
      ++range->size;
      return count();
    });
  }

  bool keyValue(Token first, flat::KeyValue* kv) {
    return object(first, "KeyValue", kKeyValue, [&](uint32_t f, Token v) {
      if (f == 1) return text(v, "KeyValue", "key", &kv->key);
      if (f == 3) return integerField(v, "KeyValue", "keyStrindex", &kv->key_strindex);
      return value(v, &kv->value);
    });
  }

  // An AnyValue read into its parts; arrays and key-value lists as their encoded list's body.
  struct Parts {
    ValueKind kind = ValueKind::kAbsent;
    int64_t scalar = 0;
    std::string data;  // string, bytes, or the encoded ArrayValue / KeyValueList
    bool refs = false;
  };

  bool value(Token first, flat::Value* out) {
    if (first == Token::kNull) return true;  // absent
    Parts p;
    if (!anyValue(first, &p, 0)) return false;
    out->kind = p.kind;
    out->scalar = p.scalar;
    out->nested_refs = p.refs;
    if (p.kind == ValueKind::kString || p.kind == ValueKind::kBytes || p.kind == ValueKind::kArray ||
        p.kind == ValueKind::kKvList)
      out->bytes = b_.addBytes(p.data);
    return true;
  }

  bool anyValue(Token first, Parts* p, int depth) {
    p->kind = ValueKind::kEmpty;
    bool set = false;
    return object(first, "AnyValue", kAnyValue, [&](uint32_t f, Token v) {
      if (v == Token::kNull) return true;  // the member is not set
      if (set) return invalid("AnyValue", kAnyValue[f].camel.data(), "another member of the oneof is already set");
      set = true;
      switch (f) {
        case 1: {
          std::string_view s;
          if (!stringField(v, "AnyValue", "stringValue", &s)) return false;
          p->kind = ValueKind::kString;
          p->data.assign(s);
          return true;
        }
        case 2: {
          bool b;
          if (!boolField(v, "AnyValue", "boolValue", &b)) return false;
          p->kind = ValueKind::kBool;
          p->scalar = b;
          return true;
        }
        case 3:
          p->kind = ValueKind::kInt;
          return integerField(v, "AnyValue", "intValue", &p->scalar);
        case 4: {
          double d;
          if (!doubleField(v, "AnyValue", "doubleValue", &d)) return false;
          p->kind = ValueKind::kDouble;
          p->scalar = std::bit_cast<int64_t>(d);
          return true;
        }
        case 5:
        case 6:
          p->kind = f == 5 ? ValueKind::kArray : ValueKind::kKvList;
          return list(v, f == 6, p, depth + 1);
        case 7:
          p->kind = ValueKind::kBytes;
          return bytesField(v, "AnyValue", "bytesValue", &p->data);
        default: {
          int32_t i;
          if (!integerField(v, "AnyValue", "stringValueStrindex", &i)) return false;
          p->kind = ValueKind::kStrindex;
          p->scalar = i;
          return true;
        }
      }
    });
  }

  // An ArrayValue or KeyValueList, encoded into p->data.
  bool list(Token first, bool kv, Parts* p, int depth) {
    return object(first, kv ? "KeyValueList" : "ArrayValue", kList, [&](uint32_t, Token v) {
      return repeated(v, [&](Token e) {
        std::string element;
        if (!(kv ? nestedKeyValue(e, &element, &p->refs, depth) : nestedValue(e, &element, &p->refs, depth))) return false;
        appendLenField(p->data, 1, element);
        return count();
      });
    });
  }

  bool nestedValue(Token first, std::string* out, bool* refs, int depth) {
    Parts p;
    if (!anyValue(first, &p, depth)) return false;
    *refs |= p.refs || p.kind == ValueKind::kStrindex;
    encodeAnyValue(p, out);
    return true;
  }

  bool nestedKeyValue(Token first, std::string* out, bool* refs, int depth) {
    std::string key_bytes;
    int32_t key_strindex = 0;
    Parts value;
    bool ok = object(first, "KeyValue", kKeyValue, [&](uint32_t f, Token v) {
      if (f == 1) {
        std::string_view s;
        if (!stringField(v, "KeyValue", "key", &s)) return false;
        key_bytes.assign(s);
        return true;
      }
      if (f == 3) return integerField(v, "KeyValue", "keyStrindex", &key_strindex);
      if (v == Token::kNull) return true;
      value = Parts{};
      return anyValue(v, &value, depth);
    });
    if (!ok) return false;
    *refs |= key_strindex != 0 || value.refs || value.kind == ValueKind::kStrindex;
    if (!key_bytes.empty()) appendLenField(*out, 1, key_bytes);
    if (value.kind != ValueKind::kAbsent) {
      std::string body;
      encodeAnyValue(value, &body);
      appendLenField(*out, 2, body);
    }
    if (key_strindex != 0) appendVarintField(*out, 3, static_cast<uint64_t>(static_cast<int64_t>(key_strindex)));
    return true;
  }

  static void appendVarint(std::string& out, uint64_t v) {
    uint8_t buf[10];
    out.append(reinterpret_cast<const char*>(buf), static_cast<size_t>(flat::wire::putVarint(buf, v) - buf));
  }
  static void appendVarintField(std::string& out, uint32_t field, uint64_t v) {
    out += static_cast<char>(field << 3 | flat::wire::kVarint);
    appendVarint(out, v);
  }
  static void appendLenField(std::string& out, uint32_t field, std::string_view payload) {
    out += static_cast<char>(field << 3 | flat::wire::kLen);
    appendVarint(out, payload.size());
    out.append(payload);
  }
  // The AnyValue message's body: its one member (a oneof member is written even when zero).
  static void encodeAnyValue(const Parts& p, std::string* out) {
    switch (p.kind) {
      case ValueKind::kString: appendLenField(*out, 1, p.data); break;
      case ValueKind::kBool: appendVarintField(*out, 2, p.scalar != 0); break;
      case ValueKind::kInt: appendVarintField(*out, 3, static_cast<uint64_t>(p.scalar)); break;
      case ValueKind::kDouble: {
        *out += static_cast<char>(4 << 3 | flat::wire::kFixed64);
        uint8_t buf[8];
        flat::wire::putFixed64(buf, static_cast<uint64_t>(p.scalar));
        out->append(reinterpret_cast<const char*>(buf), 8);
        break;
      }
      case ValueKind::kArray: appendLenField(*out, 5, p.data); break;
      case ValueKind::kKvList: appendLenField(*out, 6, p.data); break;
      case ValueKind::kBytes: appendLenField(*out, 7, p.data); break;
      case ValueKind::kStrindex: appendVarintField(*out, 8, static_cast<uint64_t>(p.scalar)); break;
      case ValueKind::kAbsent:
      case ValueKind::kEmpty: break;
    }
  }

  bool scopeProfiles(Token first, flat::Scope* scope) {
    scope->profiles.begin = static_cast<uint32_t>(b_.profiles.size());
    return object(first, "ScopeProfiles", kScopeProfiles, [&](uint32_t f, Token v) {
      if (f == 1) {
        if (v == Token::kNull) return true;
        scope->present = true;
        return instrumentationScope(v, scope);
      }
      if (f == 2) {
        return repeated(v, [&](Token e) {
          flat::Profile p;
          if (!profile(e, &p)) return false;
          b_.profiles.push_back(p);
          ++scope->profiles.size;
          return count();
        });
      }
      return text(v, "ScopeProfiles", "schemaUrl", &scope->schema_url);
    });
  }

  bool instrumentationScope(Token first, flat::Scope* scope) {
    return object(first, "InstrumentationScope", kScope, [&](uint32_t f, Token v) {
      if (f == 1) return text(v, "InstrumentationScope", "name", &scope->name);
      if (f == 2) return text(v, "InstrumentationScope", "version", &scope->version);
      if (f == 3) return keyValues(v, &scope->attributes);
      return integerField(v, "InstrumentationScope", "droppedAttributesCount", &scope->dropped_attributes_count);
    });
  }

  bool valueType(Token first, flat::ValueType* vt) {
    if (first == Token::kNull) return true;
    vt->present = true;
    return object(first, "ValueType", kValueType, [&](uint32_t f, Token v) {
      return integerField(v, "ValueType", f == 1 ? "typeStrindex" : "unitStrindex",
                          f == 1 ? &vt->type_strindex : &vt->unit_strindex);
    });
  }

  bool profile(Token first, flat::Profile* p) {
    p->samples.begin = static_cast<uint32_t>(b_.samples.size());
    std::vector<int32_t> attributes;  // appended after the samples, whose lists share the column
    std::string bytes;
    bool ok = object(first, "Profile", kProfile, [&](uint32_t f, Token v) {
      switch (f) {
        case 1: return valueType(v, &p->sample_type);
        case 2:
          return repeated(v, [&](Token e) {
            if (!sample(e)) return false;
            ++p->samples.size;
            return true;
          });
        case 3: return integerField(v, "Profile", "timeUnixNano", &p->time_unix_nano);
        case 4: return integerField(v, "Profile", "durationNano", &p->duration_nano);
        case 5: return valueType(v, &p->period_type);
        case 6: return integerField(v, "Profile", "period", &p->period);
        case 7: return hexId(v, "Profile", "profileId", &p->profile_id);
        case 8: return integerField(v, "Profile", "droppedAttributesCount", &p->dropped_attributes_count);
        case 9: return text(v, "Profile", "originalPayloadFormat", &p->original_payload_format);
        case 10:
          if (!bytesField(v, "Profile", "originalPayload", &bytes)) return false;
          p->original_payload = b_.addBytes(bytes);
          return true;
        default:
          return repeated(v, [&](Token e) {
            int32_t i;
            if (!integerField(e, "Profile", "attributeIndices", &i)) return false;
            attributes.push_back(i);
            return count();
          });
      }
    });
    if (!ok) return false;
    p->attributes = {static_cast<uint32_t>(b_.indices.size()), static_cast<uint32_t>(attributes.size())};
    b_.indices.insert(b_.indices.end(), attributes.begin(), attributes.end());
    return true;
  }

  bool sample(Token first) {
    int32_t stack = 0, link = 0;
    Range attributes, values, timestamps;
    bool unknown = false;
    bool ok = object(first, "Sample", kSample, [&](uint32_t f, Token v) {
      switch (f) {
        case 1: return integerField(v, "Sample", "stackIndex", &stack);
        case 2: return integerList(v, "Sample", "attributeIndices", b_.indices, attributes);
        case 3: return integerField(v, "Sample", "linkIndex", &link);
        case 4: return integerList(v, "Sample", "values", b_.values, values);
        default: return integerList(v, "Sample", "timestampsUnixNano", b_.timestamps, timestamps);
      }
    }, &unknown);
    if (!ok || !count()) return false;
    if (unknown) unknown_samples.push_back(static_cast<uint32_t>(b_.samples.size()));
    flat::appendSampleRow(b_.samples, stack, link, attributes, values, timestamps);
    return true;
  }

  bool dictionary(Token first) {
    return object(first, "ProfilesDictionary", kDictionary, [&](uint32_t f, Token v) {
      return repeated(v, [&](Token e) {
        if (!count()) return false;
        switch (f) {
          case 1: return mapping(e);
          case 2: return location(e);
          case 3: return function(e);
          case 4: return link(e);
          case 5: {
            flat::Bytes s;
            if (!text(e, "ProfilesDictionary", "stringTable", &s)) return false;
            b_.strings.push_back(s);
            return true;
          }
          case 6: return attribute(e);
          default: return stack(e);
        }
      });
    });
  }

  bool mapping(Token first) {
    flat::Mapping m;
    bool ok = object(first, "Mapping", kMapping, [&](uint32_t f, Token v) {
      switch (f) {
        case 1: return integerField(v, "Mapping", "memoryStart", &m.memory_start);
        case 2: return integerField(v, "Mapping", "memoryLimit", &m.memory_limit);
        case 3: return integerField(v, "Mapping", "fileOffset", &m.file_offset);
        case 4: return integerField(v, "Mapping", "filenameStrindex", &m.filename_strindex);
        default: return integerList(v, "Mapping", "attributeIndices", b_.indices, m.attributes);
      }
    });
    b_.mappings.push_back(m);
    return ok;
  }

  bool location(Token first) {
    flat::Location l;
    bool ok = object(first, "Location", kLocation, [&](uint32_t f, Token v) {
      switch (f) {
        case 1: return integerField(v, "Location", "mappingIndex", &l.mapping_index);
        case 2: return integerField(v, "Location", "address", &l.address);
        case 3:
          prepareAppend(b_.lines, l.lines);
          return repeated(v, [&](Token e) {
            flat::Line line;
            if (!lineEntry(e, &line)) return false;
            b_.lines.push_back(line);
            ++l.lines.size;
            return count();
          });
        default: return integerList(v, "Location", "attributeIndices", b_.indices, l.attributes);
      }
    });
    b_.locations.push_back(l);
    return ok;
  }

  bool lineEntry(Token first, flat::Line* line) {
    return object(first, "Line", kLine, [&](uint32_t f, Token v) {
      if (f == 1) return integerField(v, "Line", "functionIndex", &line->function_index);
      return integerField(v, "Line", f == 2 ? "line" : "column", f == 2 ? &line->line : &line->column);
    });
  }

  bool function(Token first) {
    flat::Function fn;
    bool ok = object(first, "Function", kFunction, [&](uint32_t f, Token v) {
      switch (f) {
        case 1: return integerField(v, "Function", "nameStrindex", &fn.name_strindex);
        case 2: return integerField(v, "Function", "systemNameStrindex", &fn.system_name_strindex);
        case 3: return integerField(v, "Function", "filenameStrindex", &fn.filename_strindex);
        default: return integerField(v, "Function", "startLine", &fn.start_line);
      }
    });
    b_.functions.push_back(fn);
    return ok;
  }

  bool link(Token first) {
    flat::Link l;
    bool ok = object(first, "Link", kLink, [&](uint32_t f, Token v) {
      return hexId(v, "Link", f == 1 ? "traceId" : "spanId", f == 1 ? &l.trace_id : &l.span_id);
    });
    b_.links.push_back(l);
    return ok;
  }

  bool attribute(Token first) {
    flat::Attribute a;
    bool ok = object(first, "KeyValueAndUnit", kAttribute, [&](uint32_t f, Token v) {
      if (f == 2) return value(v, &a.value);
      return integerField(v, "KeyValueAndUnit", f == 1 ? "keyStrindex" : "unitStrindex",
                          f == 1 ? &a.key_strindex : &a.unit_strindex);
    });
    b_.attributes.push_back(a);
    return ok;
  }

  bool stack(Token first) {
    flat::Stack s;
    bool ok = object(first, "Stack", kStackFields, [&](uint32_t, Token v) {
      return integerList(v, "Stack", "locationIndices", b_.indices, s.locations);
    });
    b_.stacks.push_back(s);
    return ok;
  }
  static constexpr FieldName kStackFields[] = {{}, {"locationIndices", "location_indices"}};

  json::Reader r_;
  flat::Batch& b_;
  const DecodeLimits& limits_;
  std::string error_;
  StatusCode error_code_ = StatusCode::kInvalidArgument;
  size_t entries_ = 0;
  size_t next_claim_ = 4096;
  std::string schema_owned_, type_owned_;
};

}  // namespace

DecodeResult decode(std::string_view json, flat::Batch* out, const DecodeLimits& limits) {
  out->clear();
  DecodeResult result;
  if (json.size() > limits.max_bytes || json.size() > UINT32_MAX) {
    result.status = Status::tooLarge("OTLP/JSON document of " + std::to_string(json.size()) + " bytes is too large");
    return result;
  }
  Decoder decoder(json, *out, limits);
  result.status = decoder.run();
  if (!result.status.isOk()) {
    out->clear();
    return result;
  }
  result.samples_with_unknown_fields = std::move(decoder.unknown_samples);
  return result;
}

}  // namespace proflow::otlp_json
