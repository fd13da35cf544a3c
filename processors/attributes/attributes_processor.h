// The `attributes` processor: applies the configured actions to the attributes of every sample of
// the selected profiles. Sample attributes are entries of the batch's shared attribute_table that
// other samples and profiles may reference too, so an entry is never edited in place: the edited
// list is re-interned (new entries appended through flat::DictionaryIndex, existing equal ones reused)
// and only the edited sample's attribute lists are re-pointed.
#pragma once

#include "core/attributes/actions.h"
#include "core/component/factory.h"
#include "processors/attributes/config.h"
#include "processors/attributes/profile_matcher.h"

namespace proflow::processors::attributes {

struct EditCounts {
  uint64_t profiles = 0;  // selected by include/exclude
  uint64_t samples = 0;   // whose attribute list changed
};

// Applies `actions` to the samples of the profiles `matcher` selects in `batch`.
// `context`: the request metadata of the batch (from_context); null when none.
EditCounts applyToSamples(const proflow::attributes::ActionSet& actions, const ProfileMatcher& matcher,
                          flat::Batch& batch, const ClientMetadata* context = nullptr);

class AttributesProcessor final : public Processor {
 public:
  AttributesProcessor(const CreateSettings& settings, const AttributesProcessorConfig& config, ConsumerPtr next);

  Capabilities capabilities() const override { return {.mutates_data = true}; }
  Status start(Host&) override { return Status::ok(); }
  void shutdown(Deadline) override {}
  Status consume(Batch batch) override;

 private:
  proflow::attributes::ActionSet actions_;
  ProfileMatcher matcher_;
  ConsumerPtr next_;
  telemetry::Counter* samples_changed_ = nullptr;
};

}  // namespace proflow::processors::attributes
