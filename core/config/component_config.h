// Type-erased holder of one component's config struct (see config_reader.h for how structs declare
// their fields). The service decodes and validates through this interface; the component's factory
// reads its own struct back with as<T>().
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <typeinfo>

#include "core/config/config_reader.h"
#include "core/config/option_docs.h"

namespace proflow::config {

class ComponentConfig {
 public:
  virtual ~ComponentConfig() = default;
  // `path` is the YAML path of the component, e.g. "exporters.otlp/backend".
  virtual void decode(const ConfigNode& node, const std::string& path, ConfigErrors& errors) = 0;
  virtual void validate(ConfigErrors& errors) const = 0;
  // Checks that need more than the component's own section (a connector's routes) report through
  // the context `check` is given, at this config's field locations.
  virtual void validateWith(ConfigErrors& errors, const std::function<void(ValidationContext&)>& check) const = 0;
  // Every option the config declares, with its default (the value this config holds) and help text.
  virtual std::vector<OptionDoc> options() const { return {}; }

  template <class T>
  const T& as() const;

 protected:
  virtual const void* raw(const std::type_info& type) const = 0;
};

template <class T>
class TypedConfig final : public ComponentConfig {
 public:
  TypedConfig() = default;
  explicit TypedConfig(T value) : value_(std::move(value)) {}

  void decode(const ConfigNode& node, const std::string& path, ConfigErrors& errors) override {
    path_ = path;
    root_ = node.location;
    FieldReader reader(node, path, errors, &locations_);
    value_.visit(reader);
    reader.finish();
  }

  void validate(ConfigErrors& errors) const override {
    if constexpr (ValidatableConfig<T>) {
      ValidationContext ctx(errors, path_, locations_, root_);
      value_.validate(ctx);
    } else {
      (void)errors;
    }
  }

  void validateWith(ConfigErrors& errors, const std::function<void(ValidationContext&)>& check) const override {
    ValidationContext ctx(errors, path_, locations_, root_);
    check(ctx);
  }

  std::vector<OptionDoc> options() const override {
    std::vector<OptionDoc> out;
    T copy = value_;  // visit() is not const; the lister only reads
    OptionLister lister("", out);
    copy.visit(lister);
    return out;
  }

  T& value() { return value_; }
  const T& value() const { return value_; }

 protected:
  const void* raw(const std::type_info& type) const override { return type == typeid(T) ? &value_ : nullptr; }

 private:
  T value_{};
  std::string path_;
  SourceLocation root_;
  FieldLocations locations_;
};

template <class T>
const T& ComponentConfig::as() const {
  if (const void* p = raw(typeid(T))) return *static_cast<const T*>(p);
  throw std::bad_cast();
}

}  // namespace proflow::config
