#include "core/attributes/actions.h"

#include "core/util/utf8.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "core/util/ascii.h"
#include "core/util/hex.h"

namespace proflow::attributes {
namespace {

using V = otlp::AnyValue;

Attr* find(AttrList& attrs, const std::string& key) {
  for (auto& a : attrs)
    if (a.key == key) return &a;
  return nullptr;
}

// Sets key = value: replaces the value of an existing attribute or appends a new one.
void put(AttrList& attrs, const std::string& key, const V& value) {
  if (Attr* a = find(attrs, key)) {
    a->value = value;
    a->changed = true;
    return;
  }
  attrs.push_back({key, value, -1, true});
}

std::string doubleText(double d) {
  char buf[64];
  auto [p, ec] = std::to_chars(buf, buf + sizeof(buf), d);
  return ec == std::errc() ? std::string(buf, p) : std::string();
}

// Text a value is hashed or converted from: strings and bytes raw, scalars in their usual spelling.
std::optional<std::string> scalarText(const V& v) {
  switch (v.value_case()) {
    case V::kStringValue: return v.string_value();
    case V::kBytesValue: return v.bytes_value();
    case V::kIntValue: return std::to_string(v.int_value());
    case V::kDoubleValue: return doubleText(v.double_value());
    case V::kBoolValue: return std::string(v.bool_value() ? "true" : "false");
    default: return std::nullopt;
  }
}

std::optional<int64_t> parseInt(const std::string& s) {
  int64_t i = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
  if (ec == std::errc() && p == s.data() + s.size() && !s.empty()) return i;
  return std::nullopt;
}

std::optional<double> parseDouble(const std::string& s) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return std::nullopt;
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (*end != '\0') return std::nullopt;
  return d;
}

std::optional<int64_t> doubleToInt(double d) {
  // Truncates toward zero like a cast, but refuses values an int64 cannot hold.
  if (!std::isfinite(d) || d >= 9.2233720368547758e18 || d < -9.2233720368547758e18) return std::nullopt;
  return static_cast<int64_t>(d);
}

std::optional<bool> parseBool(std::string_view text) {
  const std::string s = toLowerAscii(text);
  if (s == "true" || s == "1") return true;
  if (s == "false" || s == "0") return false;
  return std::nullopt;
}

std::optional<int64_t> toInt(const V& v) {
  switch (v.value_case()) {
    case V::kIntValue: return v.int_value();
    case V::kBoolValue: return v.bool_value() ? 1 : 0;
    case V::kDoubleValue: return doubleToInt(v.double_value());
    case V::kStringValue: {
      if (auto i = parseInt(v.string_value())) return i;
      if (auto d = parseDouble(v.string_value())) return doubleToInt(*d);
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

std::optional<double> toDouble(const V& v) {
  switch (v.value_case()) {
    case V::kDoubleValue: return v.double_value();
    case V::kIntValue: return static_cast<double>(v.int_value());
    case V::kBoolValue: return v.bool_value() ? 1.0 : 0.0;
    case V::kStringValue: return parseDouble(v.string_value());
    default: return std::nullopt;
  }
}

std::optional<bool> toBool(const V& v) {
  switch (v.value_case()) {
    case V::kBoolValue: return v.bool_value();
    case V::kIntValue: return v.int_value() != 0;
    case V::kDoubleValue: return v.double_value() != 0.0;
    case V::kStringValue: return parseBool(v.string_value());
    default: return std::nullopt;
  }
}

}  // namespace

std::string sha256Hex(std::string_view data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(data.data(), data.size(), md, &len, EVP_sha256(), nullptr) != 1) return {};
  return hexEncode(std::span<const uint8_t>(md, len));
}

std::optional<otlp::AnyValue> convertValue(const otlp::AnyValue& v, ConvertType to) {
  V out;
  switch (to) {
    case ConvertType::kString: {
      if (v.value_case() == V::kBytesValue) return std::nullopt;  // bytes are not text
      auto s = scalarText(v);
      if (!s) return std::nullopt;
      out.set_string_value(*s);
      return out;
    }
    case ConvertType::kInt: {
      auto i = toInt(v);
      if (!i) return std::nullopt;
      out.set_int_value(*i);
      return out;
    }
    case ConvertType::kDouble: {
      auto d = toDouble(v);
      if (!d) return std::nullopt;
      out.set_double_value(*d);
      return out;
    }
    case ConvertType::kBool: {
      auto b = toBool(v);
      if (!b) return std::nullopt;
      out.set_bool_value(*b);
      return out;
    }
    case ConvertType::kNone: break;
  }
  return std::nullopt;
}

bool ActionSet::Action::targets(const std::string& k) const {
  // Like the Collector's key patterns: a match anywhere in the key counts (anchor with ^...$).
  return key_pattern ? regexSearch(*key_pattern, k) : k == key;
}

ActionSet::ActionSet(const std::vector<ActionConfig>& configs) {
  for (const auto& c : configs) {
    auto kind = parseActionKind(c.action);
    if (!kind) throw std::invalid_argument("unknown action '" + c.action + "'");
    Action a{.kind = *kind, .key = c.key};
    std::string err;
    if (*kind == ActionKind::kExtract) {
      a.extract = compileNamedRegex(c.pattern, &err);
      if (!a.extract) throw std::invalid_argument(err);
    } else if (!c.pattern.empty()) {
      a.key_pattern = compileRegex(c.pattern, &err);
      if (!a.key_pattern) throw std::invalid_argument(err);
    }
    if (!c.value.isNull()) a.value = scalarToValue(c.value);
    a.from_attribute = c.from_attribute;
    a.from_context = c.from_context.rfind("metadata.", 0) == 0 ? c.from_context.substr(9) : c.from_context;
    if (*kind == ActionKind::kConvert) a.convert = parseConvertType(c.converted_type).value_or(ConvertType::kNone);
    actions_.push_back(std::move(a));
  }
}

bool ActionSet::readsContext() const {
  for (const auto& a : actions_)
    if (!a.from_context.empty()) return true;
  return false;
}

bool ActionSet::apply(AttrList& attrs, const ClientMetadata* context) const {
  bool changed = false;
  for (const auto& a : actions_) changed |= applyOne(a, attrs, context);
  return changed;
}

bool ActionSet::applyOne(const Action& a, AttrList& attrs, const ClientMetadata* context) const {
  switch (a.kind) {
    case ActionKind::kInsert:
    case ActionKind::kUpdate:
    case ActionKind::kUpsert: return setValue(a, attrs, context);
    case ActionKind::kDelete: {
      auto n = attrs.size();
      std::erase_if(attrs, [&](const Attr& x) { return a.targets(x.key); });
      return attrs.size() != n;
    }
    case ActionKind::kExtract: return extract(a, attrs);
    case ActionKind::kHash:
    case ActionKind::kConvert: return transform(a, attrs);
  }
  return false;
}

bool ActionSet::setValue(const Action& a, AttrList& attrs, const ClientMetadata* context) const {
  V value;
  if (a.value) {
    value = *a.value;
  } else if (!a.from_context.empty()) {
    const std::vector<std::string>* values = context ? context->get(a.from_context) : nullptr;
    if (values == nullptr || values->empty()) return false;  // nothing to copy: skipped, as from_attribute
    std::string joined;
    for (const auto& v : *values) joined += (joined.empty() ? "" : ";") + v;
    // A header may hold any bytes; what enters the data is valid UTF-8 (what a receiver accepts).
    value.set_string_value(isValidUtf8(joined) ? std::move(joined) : sanitizeUtf8(joined));
  } else {
    Attr* src = find(attrs, a.from_attribute);
    if (src == nullptr) return false;  // nothing to copy: the Collector skips the action too
    value = src->value;
  }
  bool changed = false;
  for (auto& x : attrs) {
    if (!a.targets(x.key) || a.kind == ActionKind::kInsert) continue;
    x.value = value;
    x.changed = true;
    changed = true;
  }
  bool exists = a.key_pattern || find(attrs, a.key) != nullptr;
  if (!exists && a.kind != ActionKind::kUpdate) {
    attrs.push_back({a.key, value, -1, true});
    changed = true;
  }
  return changed;
}

bool ActionSet::extract(const Action& a, AttrList& attrs) const {
  Attr* src = find(attrs, a.key);
  if (src == nullptr || src->value.value_case() != V::kStringValue) return false;
  const std::string text = src->value.string_value();  // copy: put() may reallocate attrs
  auto captures = searchNamed(*a.extract, text);
  if (!captures) return false;
  for (const auto& c : *captures) {
    V v;
    v.set_string_value(std::string(c.value));
    put(attrs, std::string(c.name), v);
  }
  return !captures->empty();
}

bool ActionSet::transform(const Action& a, AttrList& attrs) const {
  bool changed = false;
  for (auto& x : attrs) {
    if (!a.targets(x.key)) continue;
    std::optional<V> next;
    if (a.kind == ActionKind::kHash) {
      if (auto text = scalarText(x.value)) {
        next.emplace();
        next->set_string_value(sha256Hex(*text));
      }
    } else {
      next = convertValue(x.value, a.convert);
    }
    // Not convertible, or already of that type and value: left as it is.
    if (!next || next->SerializeAsString() == x.value.SerializeAsString()) continue;
    x.value = std::move(*next);
    x.changed = true;
    changed = true;
  }
  return changed;
}

}  // namespace proflow::attributes
