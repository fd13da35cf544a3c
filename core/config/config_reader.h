// Declarative config decoding. A config struct lists its fields once, in a `visit` method:
//
//   struct MyConfig {
//     std::string endpoint = "127.0.0.1:4317";
//     config::Duration timeout = std::chrono::seconds(5);
//     template <class V> void visit(V& v) {
//       v.field("endpoint", endpoint, "host:port to listen on");
//       v.field("timeout", timeout, "per-request deadline");
//     }
//     void validate(config::ValidationContext& ctx) const;  // optional
//   };
//
// The same list decodes YAML (FieldReader), rejects unknown keys naming the valid ones, and records
// where each field came from so validate() can point at file:line:column.
#pragma once

#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/config/config_errors.h"
#include "core/config/config_node.h"
#include "core/config/config_types.h"

namespace proflow::config {

using FieldLocations = std::map<std::string, SourceLocation, std::less<>>;

class FieldReader;

template <class T>
concept VisitableConfig = requires(T& t, FieldReader& r) { t.visit(r); };

class FieldReader {
 public:
  FieldReader(const ConfigNode& node, std::string path, ConfigErrors& errors, FieldLocations* locations)
      : node_(node), path_(std::move(path)), errors_(errors), locations_(locations) {
    if (!node_.isMap() && !node_.isNull())
      errors_.add(path_, node_.location,
                  std::string("expected a map, got ") + ConfigNode::kindName(node_.kind));
  }

  template <class T>
  FieldReader& field(std::string_view key, T& value, std::string_view /*help*/ = {}) {
    known_.emplace(key);
    const std::string path = join(key);
    if (locations_) (*locations_)[path] = node_.isMap() ? node_.keyLocation(key) : node_.location;
    if (!node_.isMap()) return *this;
    if (const ConfigNode* child = node_.find(key)) decodeValue(*child, path, value);
    return *this;
  }

  // Reports keys present in YAML that no field() call claimed.
  void finish() {
    if (!node_.isMap()) return;
    for (size_t i = 0; i < node_.entries.size(); ++i) {
      const auto& key = node_.entries[i].first;
      if (known_.count(key)) continue;
      std::string valid;
      for (const auto& k : known_) valid += (valid.empty() ? "" : ", ") + k;
      errors_.add(join(key), node_.key_locations[i],
                  "unknown key " + quoteValue(key) + (valid.empty() ? " (no keys are valid here)" : "; valid keys: " + valid));
    }
  }

  ConfigErrors& errors() { return errors_; }

 private:
  std::string join(std::string_view key) const { return path_.empty() ? std::string(key) : path_ + "." + std::string(key); }

  void fail(const ConfigNode& n, const std::string& path, const std::string& msg) { errors_.add(path, n.location, msg); }

  bool scalar(const ConfigNode& n, const std::string& path, const char* what) {
    if (n.isScalar()) return true;
    fail(n, path, std::string("expected ") + what + ", got " + ConfigNode::kindName(n.kind));
    return false;
  }

  void decodeValue(const ConfigNode& n, const std::string& path, std::string& out) {
    if (n.isNull()) return;  // keep the default
    if (scalar(n, path, "a string")) out = n.scalar;
  }

  void decodeValue(const ConfigNode& n, const std::string& path, bool& out) {
    if (n.isNull() || !scalar(n, path, "true or false")) return;
    if (n.scalar == "true" || n.scalar == "True" || n.scalar == "TRUE") out = true;
    else if (n.scalar == "false" || n.scalar == "False" || n.scalar == "FALSE") out = false;
    else fail(n, path, "expected true or false, got " + quoteValue(n.scalar));
  }

  template <class T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  void decodeValue(const ConfigNode& n, const std::string& path, T& out) {
    if (n.isNull() || !scalar(n, path, "an integer")) return;
    T v{};
    auto [p, ec] = std::from_chars(n.scalar.data(), n.scalar.data() + n.scalar.size(), v);
    if (ec != std::errc() || p != n.scalar.data() + n.scalar.size())
      fail(n, path, "expected an integer" + std::string(std::is_unsigned_v<T> ? " >= 0" : "") + " in range, got " +
                        quoteValue(n.scalar));
    else out = v;
  }

  void decodeValue(const ConfigNode& n, const std::string& path, double& out) {
    if (n.isNull() || !scalar(n, path, "a number")) return;
    char* end = nullptr;
    double v = std::strtod(n.scalar.c_str(), &end);
    if (n.scalar.empty() || *end != '\0') fail(n, path, "expected a number, got " + quoteValue(n.scalar));
    else out = v;
  }

  void decodeValue(const ConfigNode& n, const std::string& path, Duration& out) {
    if (n.isNull() || !scalar(n, path, "a duration")) return;
    if (auto d = parseDuration(n.scalar)) out = *d;
    else fail(n, path, "expected a duration like 500ms, 5s or 1m, got " + quoteValue(n.scalar));
  }

  void decodeValue(const ConfigNode& n, const std::string& path, ByteSize& out) {
    if (n.isNull() || !scalar(n, path, "a size")) return;
    if (auto b = parseByteSize(n.scalar)) out = *b;
    else fail(n, path, "expected a size like 512KiB, 64MiB or 1048576, got " + quoteValue(n.scalar));
  }

  void decodeValue(const ConfigNode& n, const std::string&, ConfigNode& out) { out = n; }

  // A key that is present turns an optional section on, even with an empty value
  // (`grpc:` enables gRPC with its defaults, as in the Collector).
  template <class T>
  void decodeValue(const ConfigNode& n, const std::string& path, std::optional<T>& out) {
    if (n.isNull()) {
      if (!out) out.emplace();
      if constexpr (VisitableConfig<T>) decodeValue(n, path, *out);  // records field locations
      return;
    }
    T v{};
    if (out) v = *out;
    decodeValue(n, path, v);
    out = std::move(v);
  }

  template <class T>
  void decodeValue(const ConfigNode& n, const std::string& path, std::vector<T>& out) {
    if (n.isNull()) return;
    if (!n.isSequence()) {
      fail(n, path, std::string("expected a list, got ") + ConfigNode::kindName(n.kind));
      return;
    }
    out.clear();
    for (size_t i = 0; i < n.items.size(); ++i) {
      T v{};
      decodeValue(n.items[i], path + "[" + std::to_string(i) + "]", v);
      out.push_back(std::move(v));
    }
  }

  template <class T>
  void decodeValue(const ConfigNode& n, const std::string& path, std::map<std::string, T>& out) {
    if (n.isNull()) return;
    if (!n.isMap()) {
      fail(n, path, std::string("expected a map, got ") + ConfigNode::kindName(n.kind));
      return;
    }
    out.clear();
    for (const auto& [k, child] : n.entries) {
      T v{};
      decodeValue(child, path + "." + k, v);
      out.emplace(k, std::move(v));
    }
  }

  template <VisitableConfig T>
  void decodeValue(const ConfigNode& n, const std::string& path, T& out) {
    FieldReader nested(n, path, errors_, locations_);
    out.visit(nested);
    nested.finish();
  }

  const ConfigNode& node_;
  std::string path_;
  ConfigErrors& errors_;
  FieldLocations* locations_;
  std::set<std::string, std::less<>> known_;
};

// Handed to a config's validate(): reports an error at the location of one of its fields.
class ValidationContext {
 public:
  ValidationContext(ConfigErrors& errors, std::string path, const FieldLocations& locations, SourceLocation root)
      : errors_(errors), path_(std::move(path)), locations_(locations), root_(std::move(root)) {}

  // `field` is relative to the component, e.g. "protocols.grpc.endpoint"; empty = the component itself.
  void error(std::string_view field, std::string message) {
    std::string full = field.empty() ? path_ : path_ + "." + std::string(field);
    auto it = locations_.find(full);
    errors_.add(full, it != locations_.end() ? it->second : root_, std::move(message));
  }

  // An error at a location the config keeps itself (an entry of a raw ConfigNode it decoded).
  void errorAt(std::string_view field, const SourceLocation& where, std::string message) {
    errors_.add(field.empty() ? path_ : path_ + "." + std::string(field), where, std::move(message));
  }

  // A nested struct validates relative to its own field.
  ValidationContext nested(std::string_view field) const {
    return ValidationContext(errors_, path_ + "." + std::string(field), locations_, root_);
  }

 private:
  ConfigErrors& errors_;
  std::string path_;
  const FieldLocations& locations_;
  SourceLocation root_;
};

template <class T>
concept ValidatableConfig = requires(const T& t, ValidationContext& c) { t.validate(c); };

}  // namespace proflow::config
