#include "processors/filter/ottl_conditions.h"

#include <algorithm>

#include "core/ottl/config_lists.h"

namespace proflow::processors::filter {
namespace {

void add(std::vector<ottl::ConditionSet>& sets, std::optional<ottl::ContextKind> context, const ottl::SourcedList& list,
         const std::string& field, config::ValidationContext& ctx) {
  if (list.texts.empty()) return;
  std::vector<ottl::CompileError> errors;
  auto set = ottl::ConditionSet::compile(context, list.texts, &errors);
  ottl::reportCompileErrors(ctx, field, list, errors);
  if (set) sets.push_back(std::move(*set));
}

// `profile_conditions`: a list of conditions (context inferred) or of {context, conditions} groups.
void addInferred(std::vector<ottl::ConditionSet>& sets, const config::ConfigNode& node, config::ValidationContext& ctx) {
  if (node.isNull()) return;
  if (!node.isSequence()) {
    ctx.errorAt("profile_conditions", node.location, "expected a list of conditions or of {context, conditions}");
    return;
  }
  ottl::SourcedList basic;
  for (size_t i = 0; i < node.items.size(); ++i) {
    const auto& item = node.items[i];
    const std::string field = "profile_conditions[" + std::to_string(i) + "]";
    if (item.isScalar()) {
      basic.texts.push_back(item.scalar);
      basic.locations.push_back(item.location);
      continue;
    }
    if (!item.isMap()) {
      ctx.errorAt(field, item.location, "expected a condition or a group {context, conditions}");
      continue;
    }
    std::optional<ottl::ContextKind> context;
    ottl::SourcedList conditions;
    for (size_t k = 0; k < item.entries.size(); ++k) {
      const auto& [key, value] = item.entries[k];
      if (key == "context") {
        context = value.isScalar() ? ottl::parseContext(value.scalar) : std::nullopt;
        if (!context) ctx.errorAt(field + ".context", value.location, "context must be resource, scope, profile or sample");
      } else if (key == "conditions") {
        conditions = ottl::readStringList(value, ctx, field + ".conditions");
      } else {
        ctx.errorAt(field + "." + key, item.key_locations[k],
                    "unknown key " + config::quoteValue(key) + "; valid keys: conditions, context");
      }
    }
    add(sets, context, conditions, field + ".conditions", ctx);
  }
  add(sets, std::nullopt, basic, "profile_conditions", ctx);
}

// Calls fn(p) for each profile of the item (all profiles of a resource or scope, the profile itself).
template <class Fn>
void forEachProfileOf(const flat::Batch& b, const ottl::Item& item, ottl::ContextKind c, Fn&& fn) {
  auto scopeProfiles = [&](uint32_t s) {
    for (uint32_t p = b.scopes[s].profiles.begin; p < b.scopes[s].profiles.end(); ++p) fn(p);
  };
  if (c == ottl::ContextKind::kResource) b.forEachScope(b.resources[item.resource], scopeProfiles);
  else if (c == ottl::ContextKind::kScope) scopeProfiles(item.scope);
  else fn(item.profile);
}

}  // namespace

OttlConditions OttlConditions::compile(const ProfilesConditions& profiles, const config::ConfigNode& profile_conditions,
                                       config::ValidationContext& ctx) {
  OttlConditions out;
  add(out.sets_, ottl::ContextKind::kResource, ottl::readStringList(profiles.resource, ctx, "profiles.resource"),
      "profiles.resource", ctx);
  add(out.sets_, ottl::ContextKind::kProfile, ottl::readStringList(profiles.profile, ctx, "profiles.profile"),
      "profiles.profile", ctx);
  add(out.sets_, ottl::ContextKind::kSample, ottl::readStringList(profiles.sample, ctx, "profiles.sample"),
      "profiles.sample", ctx);
  addInferred(out.sets_, profile_conditions, ctx);
  std::stable_sort(out.sets_.begin(), out.sets_.end(),
                   [](const auto& a, const auto& b) { return a.context() < b.context(); });
  return out;
}

bool OttlConditions::select(const flat::Batch& b, flat::Merger::Selection& keep, bool stop_on_error,
                            OttlDrops* drops) const {
  bool failed = false;
  for (const auto& set : sets_) {
    ottl::Evaluator ev(b, set.memoSlots());
    const ottl::ContextKind c = set.context();
    ottl::forEachItem(b, c, [&](const ottl::Item& item) {
      if (failed) return;
      if (c == ottl::ContextKind::kSample) {
        if (!keep.profiles[item.profile] || !keep.samples[item.row]) return;
        if (set.matches(ev, item, &drops->errors, stop_on_error ? &failed : nullptr)) {
          keep.samples[item.row] = false;
          ++drops->samples;
        }
        return;
      }
      bool any_kept = false;
      forEachProfileOf(b, item, c, [&](uint32_t p) { any_kept = any_kept || keep.profiles[p]; });
      if (!any_kept || !set.matches(ev, item, &drops->errors, stop_on_error ? &failed : nullptr)) return;
      forEachProfileOf(b, item, c, [&](uint32_t p) {
        if (!keep.profiles[p]) return;
        keep.profiles[p] = false;
        ++drops->profiles;
        const flat::Range rows = b.profiles[p].samples;
        for (uint32_t row = rows.begin; row < rows.end(); ++row) drops->samples += keep.samples[row] ? 1 : 0;
      });
    });
    if (failed) return false;
  }
  return true;
}

}  // namespace proflow::processors::filter
