// The set of component types this binary knows. Built-ins are registered by registerBuiltins
// (cmd/proflow/builtins.h), which CMake writes from the component folders' declarations; registering
// a type name twice for the same kind is an error.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/component/factory.h"
#include "core/util/status.h"

namespace proflow {

class Registry {
 public:
  Status add(std::unique_ptr<Factory> factory);

  const Factory* find(ComponentKind kind, std::string_view type) const;
  template <class F>
  const F* findAs(ComponentKind kind, std::string_view type) const {
    return dynamic_cast<const F*>(find(kind, type));
  }
  // Type names of one kind, sorted.
  std::vector<std::string> types(ComponentKind kind) const;
  std::vector<const Factory*> all(ComponentKind kind) const;

 private:
  std::map<std::pair<ComponentKind, std::string>, std::unique_ptr<Factory>, std::less<>> factories_;
};

}  // namespace proflow
