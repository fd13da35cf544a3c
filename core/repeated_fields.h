// Small edits on protobuf repeated fields that processors share: removing elements in place and
// dropping the scopes/resources a filter or sampler emptied.
#pragma once

#include <google/protobuf/repeated_ptr_field.h>

#include "core/otlp_types.h"

namespace proflow {

// Removes the elements for which `drop` is true, keeping the order of the rest (one pass, no copies).
template <class T, class Pred>
void removeIf(google::protobuf::RepeatedPtrField<T>* field, Pred drop) {
  int out = 0;
  for (int i = 0; i < field->size(); ++i) {
    if (drop(field->Get(i))) continue;
    if (out != i) field->SwapElements(out, i);
    ++out;
  }
  while (field->size() > out) field->RemoveLast();
}

// Removes scopes without profiles, then resources without scopes. The dictionary is left as is.
inline void dropEmptyScopesAndResources(otlp::Request& req) {
  for (auto& rp : *req.mutable_resource_profiles())
    removeIf(rp.mutable_scope_profiles(), [](const otlp::ScopeProfiles& sp) { return sp.profiles().empty(); });
  removeIf(req.mutable_resource_profiles(), [](const otlp::ResourceProfiles& rp) { return rp.scope_profiles().empty(); });
}

}  // namespace proflow
