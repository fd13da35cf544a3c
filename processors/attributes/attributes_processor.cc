#include "processors/attributes/attributes_processor.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/attributes/flat_attr_list.h"
#include "core/flat/flat_attributes.h"
#include "core/flat/flat_compact.h"

namespace proflow::processors::attributes {
namespace {

using proflow::attributes::ActionSet;
using proflow::attributes::AttrList;

// Rewrites sample attribute lists of one batch. Samples often share the same list, so each distinct
// list is edited once and the answer (a range of b.indices) reused.
class SampleEditor {
 public:
  SampleEditor(const ActionSet& actions, flat::Batch* batch, const ClientMetadata* context)
      : actions_(actions), b_(batch), context_(context) {}

  // True when the sample's list changed.
  bool edit(size_t row) {
    flat::Range& range = b_->samples.attributes[row];
    const auto list = b_->indexList(range);
    std::string key(reinterpret_cast<const char*>(list.data()), list.size() * sizeof(int32_t));
    auto it = cache_.find(key);
    if (it == cache_.end()) it = cache_.emplace(std::move(key), rewrite(range)).first;
    if (!it->second) return false;
    range = *it->second;
    return true;
  }

 private:
  // nullopt when the actions leave the list as it is.
  std::optional<flat::Range> rewrite(flat::Range range) {
    const auto view = b_->indexList(range);
    const std::vector<int32_t> indices(view.begin(), view.end());  // b.indices grows below
    AttrList attrs = proflow::attributes::readIndexedAttributes(*b_, indices);
    if (!actions_.apply(attrs, context_)) return std::nullopt;
    if (!dict_) dict_.emplace(b_);  // indexes the dictionary once, on the first edit
    const std::vector<int32_t> out = proflow::attributes::internAttributes(*dict_, indices, attrs);
    flat::Range edited{static_cast<uint32_t>(b_->indices.size()), static_cast<uint32_t>(out.size())};
    b_->indices.insert(b_->indices.end(), out.begin(), out.end());
    return edited;
  }

  const ActionSet& actions_;
  flat::Batch* b_;
  const ClientMetadata* context_;  // the same for every sample of the batch: the cache stays valid
  std::optional<flat::DictionaryIndex> dict_;
  std::unordered_map<std::string, std::optional<flat::Range>> cache_;
};

}  // namespace

EditCounts applyToSamples(const ActionSet& actions, const ProfileMatcher& matcher, flat::Batch& batch,
                          const ClientMetadata* context) {
  EditCounts counts;
  SampleEditor editor(actions, &batch, context);
  for (const flat::Resource& r : batch.resources) {
    std::string service = matcher.filters() ? flat::resourceAttribute(batch, r, "service.name").value_or("") : "";
    batch.forEachScope(r, [&](uint32_t s) {
      for (uint32_t p = batch.scopes[s].profiles.begin; p < batch.scopes[s].profiles.end(); ++p) {
        const flat::Profile& profile = batch.profiles[p];
        if (matcher.filters() && !matcher.selected(batch.string(profile.sample_type.type_strindex), service)) continue;
        ++counts.profiles;
        for (uint32_t row = profile.samples.begin; row < profile.samples.end(); ++row)
          counts.samples += editor.edit(row) ? 1 : 0;
      }
    });
  }
  return counts;
}

AttributesProcessor::AttributesProcessor(const CreateSettings& settings, const AttributesProcessorConfig& config,
                                         ConsumerPtr next)
    : actions_(config.actions), matcher_(config.include, config.exclude), next_(std::move(next)) {
  if (settings.telemetry)
    samples_changed_ = &settings.telemetry->counter("attributes_changed_samples_total",
                                                    "Samples whose attributes the actions changed");
}

Status AttributesProcessor::consume(Batch batch) {
  const ClientMetadataPtr context = batch.metadata();
  flat::Batch& data = batch.mutableData();
  EditCounts c = applyToSamples(actions_, matcher_, data, context.get());
  // The entries an edit replaced (a hashed value's original) must not reach the exporters.
  if (c.samples > 0) flat::dropUnreferenced(data);
  if (samples_changed_ && c.samples > 0) samples_changed_->add(c.samples);
  return next_->consume(std::move(batch));
}

}  // namespace proflow::processors::attributes
