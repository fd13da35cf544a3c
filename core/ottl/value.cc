#include "core/ottl/value.h"

#include <charconv>
#include <cmath>

#include "core/util/hex.h"
#include "core/util/json/json_writer.h"

namespace proflow::ottl {

Value Value::boolean(bool v) {
  Value out;
  out.kind = Kind::kBool;
  out.b = v;
  return out;
}
Value Value::integer(int64_t v) {
  Value out;
  out.kind = Kind::kInt;
  out.i = v;
  return out;
}
Value Value::floating(double v) {
  Value out;
  out.kind = Kind::kDouble;
  out.d = v;
  return out;
}
Value Value::string(std::string v) {
  Value out;
  out.kind = Kind::kString;
  out.s = std::move(v);
  return out;
}
Value Value::bytes(std::string v) {
  Value out;
  out.kind = Kind::kBytes;
  out.s = std::move(v);
  return out;
}
Value Value::list(std::vector<Value> v) {
  Value out;
  out.kind = Kind::kList;
  out.items = std::move(v);
  return out;
}
Value Value::map() {
  Value out;
  out.kind = Kind::kMap;
  return out;
}

const Value* Value::find(std::string_view key) const {
  if (kind != Kind::kMap) return nullptr;
  for (size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key) return &items[i];
  return nullptr;
}

Value* Value::find(std::string_view key) { return const_cast<Value*>(std::as_const(*this).find(key)); }

void Value::put(std::string_view key, Value v) {
  if (Value* existing = find(key)) {
    *existing = std::move(v);
    return;
  }
  keys.emplace_back(key);
  items.push_back(std::move(v));
}

bool Value::erase(std::string_view key) {
  for (size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key) {
      keys.erase(keys.begin() + static_cast<std::ptrdiff_t>(i));
      items.erase(items.begin() + static_cast<std::ptrdiff_t>(i));
      return true;
    }
  return false;
}

const char* kindName(Value::Kind k) {
  switch (k) {
    case Value::Kind::kNil: return "nil";
    case Value::Kind::kBool: return "bool";
    case Value::Kind::kInt: return "int";
    case Value::Kind::kDouble: return "float";
    case Value::Kind::kString: return "string";
    case Value::Kind::kBytes: return "bytes";
    case Value::Kind::kList: return "list";
    case Value::Kind::kMap: return "map";
  }
  return "?";
}

namespace {

std::string doubleText(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  char buf[400];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(d);
}

void appendJson(std::string& out, const Value& v) {
  switch (v.kind) {
    case Value::Kind::kNil: out += "null"; return;
    case Value::Kind::kString: json::appendString(out, v.s); return;
    case Value::Kind::kBytes: json::appendString(out, toText(v)); return;
    case Value::Kind::kList:
      out += '[';
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ',';
        appendJson(out, v.items[i]);
      }
      out += ']';
      return;
    case Value::Kind::kMap:
      out += '{';
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ',';
        json::appendString(out, v.keys[i]);
        out += ':';
        appendJson(out, v.items[i]);
      }
      out += '}';
      return;
    default: out += toText(v);
  }
}

}  // namespace

std::string toText(const Value& v) {
  switch (v.kind) {
    case Value::Kind::kNil: return "";
    case Value::Kind::kBool: return v.b ? "true" : "false";
    case Value::Kind::kInt: return std::to_string(v.i);
    case Value::Kind::kDouble: return doubleText(v.d);
    case Value::Kind::kString: return v.s;
    case Value::Kind::kBytes: return hexEncode(v.s);
    case Value::Kind::kList:
    case Value::Kind::kMap: {
      std::string out;
      appendJson(out, v);
      return out;
    }
  }
  return "";
}

std::optional<int> compare(const Value& a, const Value& b) {
  using K = Value::Kind;
  auto sign = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  if (a.kind == K::kInt && b.kind == K::kInt) return sign(a.i, b.i);
  const bool an = a.kind == K::kInt || a.kind == K::kDouble, bn = b.kind == K::kInt || b.kind == K::kDouble;
  if (an && bn) {
    const double x = a.kind == K::kInt ? static_cast<double>(a.i) : a.d;
    const double y = b.kind == K::kInt ? static_cast<double>(b.i) : b.d;
    if (std::isnan(x) || std::isnan(y)) return std::nullopt;
    return sign(x, y);
  }
  if (a.kind != b.kind) return std::nullopt;
  switch (a.kind) {
    case K::kNil: return 0;
    case K::kBool: return sign(a.b, b.b);
    case K::kString: return a.s.compare(b.s) < 0 ? -1 : (a.s == b.s ? 0 : 1);
    case K::kBytes: return a.s == b.s ? std::optional<int>(0) : std::nullopt;
    default: return equal(a, b) ? std::optional<int>(0) : std::nullopt;
  }
}

bool equal(const Value& a, const Value& b) {
  using K = Value::Kind;
  if (a.kind != b.kind) {
    auto c = compare(a, b);
    return c && *c == 0 && (a.kind == K::kInt || a.kind == K::kDouble);
  }
  switch (a.kind) {
    case K::kNil: return true;
    case K::kBool: return a.b == b.b;
    case K::kInt: return a.i == b.i;
    case K::kDouble: return a.d == b.d;
    case K::kString:
    case K::kBytes: return a.s == b.s;
    case K::kList:
    case K::kMap:
      if (a.items.size() != b.items.size() || a.keys != b.keys) return false;
      for (size_t i = 0; i < a.items.size(); ++i)
        if (!equal(a.items[i], b.items[i])) return false;
      return true;
  }
  return false;
}

Value fromAnyValue(const otlp::AnyValue& v, const flat::Batch* b) {
  switch (v.value_case()) {
    case otlp::AnyValue::kStringValue: return Value::string(v.string_value());
    case otlp::AnyValue::kStringValueStrindex:
      return Value::string(b ? std::string(b->string(v.string_value_strindex())) : std::string());
    case otlp::AnyValue::kBoolValue: return Value::boolean(v.bool_value());
    case otlp::AnyValue::kIntValue: return Value::integer(v.int_value());
    case otlp::AnyValue::kDoubleValue: return Value::floating(v.double_value());
    case otlp::AnyValue::kBytesValue: return Value::bytes(v.bytes_value());
    case otlp::AnyValue::kArrayValue: {
      Value out = Value::list({});
      for (const auto& e : v.array_value().values()) out.items.push_back(fromAnyValue(e, b));
      return out;
    }
    case otlp::AnyValue::kKvlistValue: {
      Value out = Value::map();
      for (const auto& kv : v.kvlist_value().values()) {
        std::string key = kv.key_strindex() != 0 && b ? std::string(b->string(kv.key_strindex())) : kv.key();
        out.put(key, fromAnyValue(kv.value(), b));
      }
      return out;
    }
    default: return Value::nil();
  }
}

otlp::AnyValue toAnyValue(const Value& v) {
  otlp::AnyValue out;
  switch (v.kind) {
    case Value::Kind::kNil: break;
    case Value::Kind::kBool: out.set_bool_value(v.b); break;
    case Value::Kind::kInt: out.set_int_value(v.i); break;
    case Value::Kind::kDouble: out.set_double_value(v.d); break;
    case Value::Kind::kString: out.set_string_value(v.s); break;
    case Value::Kind::kBytes: out.set_bytes_value(v.s); break;
    case Value::Kind::kList: {
      auto* arr = out.mutable_array_value();
      for (const auto& e : v.items) *arr->add_values() = toAnyValue(e);
      break;
    }
    case Value::Kind::kMap: {
      auto* kvs = out.mutable_kvlist_value();
      for (size_t i = 0; i < v.items.size(); ++i) {
        auto* kv = kvs->add_values();
        kv->set_key(v.keys[i]);
        *kv->mutable_value() = toAnyValue(v.items[i]);
      }
      break;
    }
  }
  return out;
}

}  // namespace proflow::ottl
