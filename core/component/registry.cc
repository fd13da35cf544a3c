#include "core/component/registry.h"

namespace proflow {

Status Registry::add(std::unique_ptr<Factory> factory, ComponentMetadata metadata) {
  const ComponentKind kind = factory->kind();
  const std::string type(factory->type());
  const std::string what = std::string(componentKindName(kind)) + " type '" + type + "'";
  if (metadata.type != type || metadata.kind != kind)
    return Status::internal(what + ": its metadata.yaml says " + componentKindName(metadata.kind) + " '" +
                            metadata.type + "'");
  auto taken = [&](const std::string& name) {
    return factories_.count(Key(kind, name)) > 0 || aliases_.count(Key(kind, name)) > 0;
  };
  if (taken(type)) return Status::internal("duplicate " + what + " registered");
  for (const auto& alias : metadata.deprecated_aliases)
    if (taken(alias)) return Status::internal(what + ": alias '" + alias + "' is already a type or an alias");
  for (const auto& alias : metadata.deprecated_aliases) aliases_.emplace(Key(kind, alias), type);
  factories_.emplace(Key(kind, type), Entry{std::move(factory), std::move(metadata)});
  return Status::ok();
}

Status Registry::add(std::unique_ptr<Factory> factory) {
  ComponentMetadata m;
  m.type = std::string(factory->type());
  m.kind = factory->kind();
  m.description = std::string(factory->description());
  return add(std::move(factory), std::move(m));
}

const Factory* Registry::find(ComponentKind kind, std::string_view type) const {
  auto it = factories_.find(Key(kind, std::string(type)));
  if (it == factories_.end()) {
    const std::string* target = aliasTarget(kind, type);
    if (!target) return nullptr;
    it = factories_.find(Key(kind, *target));
  }
  return it == factories_.end() ? nullptr : it->second.factory.get();
}

const std::string* Registry::aliasTarget(ComponentKind kind, std::string_view name) const {
  auto it = aliases_.find(Key(kind, std::string(name)));
  return it == aliases_.end() ? nullptr : &it->second;
}

const ComponentMetadata* Registry::metadata(ComponentKind kind, std::string_view type) const {
  auto it = factories_.find(Key(kind, std::string(type)));
  return it == factories_.end() ? nullptr : &it->second.metadata;
}

std::vector<std::string> Registry::types(ComponentKind kind) const {
  std::vector<std::string> out;
  for (const auto& [key, e] : factories_)
    if (key.first == kind) out.push_back(key.second);
  return out;
}

std::vector<const Factory*> Registry::all(ComponentKind kind) const {
  std::vector<const Factory*> out;
  for (const auto& [key, e] : factories_)
    if (key.first == kind) out.push_back(e.factory.get());
  return out;
}

}  // namespace proflow
