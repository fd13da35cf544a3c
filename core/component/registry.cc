#include "core/component/registry.h"

namespace proflow {

Status Registry::add(std::unique_ptr<Factory> factory) {
  auto key = std::make_pair(factory->kind(), std::string(factory->type()));
  if (factories_.count(key))
    return Status::internal(std::string("duplicate ") + componentKindName(factory->kind()) + " type '" + key.second +
                            "' registered");
  factories_.emplace(std::move(key), std::move(factory));
  return Status::ok();
}

const Factory* Registry::find(ComponentKind kind, std::string_view type) const {
  auto it = factories_.find(std::make_pair(kind, std::string(type)));
  return it == factories_.end() ? nullptr : it->second.get();
}

std::vector<std::string> Registry::types(ComponentKind kind) const {
  std::vector<std::string> out;
  for (const auto& [key, f] : factories_)
    if (key.first == kind) out.push_back(key.second);
  return out;
}

std::vector<const Factory*> Registry::all(ComponentKind kind) const {
  std::vector<const Factory*> out;
  for (const auto& [key, f] : factories_)
    if (key.first == kind) out.push_back(f.get());
  return out;
}

}  // namespace proflow
