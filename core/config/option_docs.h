// The options a config struct declares, for help output (`proflow components TYPE`): the same
// visit() that decodes YAML walks the struct with an OptionLister instead of a FieldReader, so key,
// type, default and help text can never disagree with what the parser accepts.
#pragma once

#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/config/config_node.h"
#include "core/config/config_types.h"

namespace proflow::config {

struct OptionDoc {
  std::string key;            // YAML path below the component: "protocols.grpc.endpoint", "actions[].key"
  std::string type;           // string, bool, integer, number, duration, size, section, list of ..., ...
  std::string default_value;  // empty when there is none
  std::string help;
};

class OptionLister {
 public:
  OptionLister(std::string prefix, std::vector<OptionDoc>& out) : prefix_(std::move(prefix)), out_(out) {}

  template <class T>
  OptionLister& field(std::string_view key, const T& value, std::string_view help = {}) {
    describe(prefix_ + std::string(key), value, std::string(help));
    return *this;
  }

 private:
  template <class T>
  static constexpr bool kSection = requires(T& t, OptionLister& l) { t.visit(l); };

  static std::string typeName(const std::string&) { return "string"; }
  static std::string typeName(const bool&) { return "bool"; }
  static std::string typeName(const double&) { return "number"; }
  static std::string typeName(const Duration&) { return "duration"; }
  static std::string typeName(const ByteSize&) { return "size"; }
  static std::string typeName(const ConfigNode&) { return "scalar"; }
  template <class T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  static std::string typeName(const T&) {
    return std::is_unsigned_v<T> ? "integer >= 0" : "integer";
  }
  template <class T>
  static std::string typeName(const std::map<std::string, T>&) {
    return "map of " + typeName(T{});
  }
  template <class T>
  static std::string typeName(const std::vector<T>&) {
    return "list of " + typeName(T{});
  }

  static std::string text(const std::string& v) { return v.empty() ? "" : "\"" + v + "\""; }
  static std::string text(const bool& v) { return v ? "true" : "false"; }
  static std::string text(const double& v) {
    char buf[32];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest spelling: 0.5, not 0.500000
    return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
  }
  static std::string text(const Duration& v) { return v.str(); }
  static std::string text(const ByteSize& v) { return v.str(); }
  static std::string text(const ConfigNode& v) { return v.isScalar() ? v.scalar : ""; }
  template <class T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  static std::string text(const T& v) {
    return std::to_string(v);
  }
  template <class T>
  static std::string text(const std::map<std::string, T>& m) {
    std::string out;
    for (const auto& [k, v] : m) out += (out.empty() ? "" : ", ") + k + ": " + text(v);
    return out.empty() ? "" : "{" + out + "}";
  }
  template <class T>
  static std::string text(const std::vector<T>& values) {
    std::string out;
    for (const auto& v : values) out += (out.empty() ? "" : ", ") + text(v);
    return values.empty() ? "" : "[" + out + "]";
  }

  template <class T>
  void describe(const std::string& key, const T& value, std::string help) {
    if constexpr (kSection<T>) {
      out_.push_back({key, "section", "", std::move(help)});
      T copy = value;  // visit() is not const; the lister only reads
      OptionLister nested(key + ".", out_);
      copy.visit(nested);
    } else {
      out_.push_back({key, typeName(value), text(value), std::move(help)});
    }
  }

  template <class T>
  void describe(const std::string& key, const std::optional<T>& value, std::string help) {
    if constexpr (kSection<T>) {
      if (!value) help += help.empty() ? "off unless set" : " (off unless set)";
      describe(key, value.value_or(T{}), std::move(help));
    } else {
      out_.push_back({key, typeName(value.value_or(T{})), value ? text(*value) : "", std::move(help)});
    }
  }

  template <class T>
  void describe(const std::string& key, const std::vector<T>& values, std::string help) {
    if constexpr (kSection<T>) {
      out_.push_back({key, "list of sections", "", std::move(help)});
      T item{};
      OptionLister nested(key + "[].", out_);
      item.visit(nested);
    } else {
      out_.push_back({key, typeName(values), text(values), std::move(help)});
    }
  }

  std::string prefix_;
  std::vector<OptionDoc>& out_;
};

}  // namespace proflow::config
