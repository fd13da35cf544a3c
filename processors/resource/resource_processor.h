// The `resource` processor: applies the configured actions to the attributes of every resource in a
// batch. Attributes may arrive inline or reference-based (key_strindex / string_value_strindex into
// the batch's string table); both are read, and entries the actions touched are written back
// inline, so the shared string table is never edited and other resources are unaffected.
#pragma once

#include "core/attributes/actions.h"
#include "core/component/factory.h"
#include "processors/resource/config.h"

namespace proflow::processors::resource {

// Applies `actions` to every resource of `batch`; returns how many resources changed.
// `context`: the request metadata of the batch (from_context); null when none.
size_t applyToResources(const attributes::ActionSet& actions, flat::Batch& batch,
                        const ClientMetadata* context = nullptr);

class ResourceProcessor final : public Processor {
 public:
  ResourceProcessor(const CreateSettings& settings, const ResourceProcessorConfig& config, ConsumerPtr next);

  Capabilities capabilities() const override { return {.mutates_data = true}; }
  Status start(Host&) override { return Status::ok(); }
  void shutdown(Deadline) override {}
  Status consume(Batch batch) override;

 private:
  attributes::ActionSet actions_;
  ConsumerPtr next_;
  telemetry::Counter* changed_ = nullptr;
};

}  // namespace proflow::processors::resource
