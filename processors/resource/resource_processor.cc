#include "processors/resource/resource_processor.h"

#include "core/attributes/flat_attr_list.h"
#include "core/flat/flat_compact.h"

namespace proflow::processors::resource {

size_t applyToResources(const attributes::ActionSet& actions, flat::Batch& batch, const ClientMetadata* context) {
  size_t changed = 0;
  for (flat::Resource& r : batch.resources) {
    attributes::AttrList attrs = attributes::readKeyValues(batch, r.attributes);
    if (!actions.apply(attrs, context)) continue;
    attributes::writeKeyValues(batch, &r.attributes, attrs);
    r.present = true;
    ++changed;
  }
  return changed;
}

ResourceProcessor::ResourceProcessor(const CreateSettings& settings, const ResourceProcessorConfig& config,
                                     ConsumerPtr next)
    : actions_(config.attributes), next_(std::move(next)) {
  if (settings.telemetry)
    changed_ = &settings.telemetry->counter("resource_changed_resources_total",
                                            "Resources whose attributes the actions changed");
}

Status ResourceProcessor::consume(Batch batch) {
  const ClientMetadataPtr context = batch.metadata();
  size_t n = applyToResources(actions_, batch.mutableData(), context.get());
  if (changed_ && n > 0) changed_->add(n);
  // A hashed, updated or deleted value must not leave in the dictionary entry nothing points at now.
  if (n > 0) flat::dropUnreferenced(batch.mutableData());
  return next_->consume(std::move(batch));
}

}  // namespace proflow::processors::resource
