// The set of component types this binary knows. Built-ins are registered by registerBuiltins
// (cmd/proflow/builtins.h), which CMake writes from the component folders' declarations and their
// metadata.yaml; registering a type name (or alias) twice for the same kind is an error.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/component/factory.h"
#include "core/component/metadata.h"
#include "core/util/status.h"

namespace proflow {

class Registry {
 public:
  // With its folder's metadata: the type, kind and description must match the factory's.
  Status add(std::unique_ptr<Factory> factory, ComponentMetadata metadata);
  // Without metadata (components built for tests): type, kind and description from the factory.
  Status add(std::unique_ptr<Factory> factory);

  // By type or by deprecated alias.
  const Factory* find(ComponentKind kind, std::string_view type) const;
  template <class F>
  const F* findAs(ComponentKind kind, std::string_view type) const {
    return dynamic_cast<const F*>(find(kind, type));
  }
  // The current type `name` is a deprecated alias of, or nullptr when it is not one.
  const std::string* aliasTarget(ComponentKind kind, std::string_view name) const;
  const ComponentMetadata* metadata(ComponentKind kind, std::string_view type) const;
  // Type names of one kind, sorted (aliases not included).
  std::vector<std::string> types(ComponentKind kind) const;
  std::vector<const Factory*> all(ComponentKind kind) const;

 private:
  struct Entry {
    std::unique_ptr<Factory> factory;
    ComponentMetadata metadata;
  };
  using Key = std::pair<ComponentKind, std::string>;
  std::map<Key, Entry, std::less<>> factories_;
  std::map<Key, std::string, std::less<>> aliases_;  // (kind, old name) -> type
};

}  // namespace proflow
