// The `transform` processor: runs OTTL statement groups over each batch, in place, in the order
// configured. Edits go through the dictionary-aware attribute helpers (core/attributes), so
// reference-based attributes stay valid and untouched entries keep their encoding.
#pragma once

#include <vector>

#include "core/component/factory.h"
#include "core/net/in_flight_budget.h"
#include "core/telemetry/log_throttle.h"
#include "processors/transform/config.h"

namespace proflow::processors::transform {

class TransformProcessor final : public Processor {
 public:
  // `config` must have passed validation; throws std::invalid_argument otherwise.
  TransformProcessor(const CreateSettings& settings, const TransformConfig& config, ConsumerPtr next);

  Capabilities capabilities() const override { return {.mutates_data = true}; }
  Status start(Host&) override { return Status::ok(); }
  void shutdown(Deadline) override {}
  Status consume(Batch batch) override;

 private:
  CreateSettings settings_;
  ConsumerPtr next_;
  std::vector<CompiledGroup> groups_;
  // What edits may add to the batches handled outside a receiver's request (behind a batch
  // processor), where no request's in-flight claim is there to charge (edit_charge.h).
  static constexpr size_t kEditBudgetBytes = size_t{512} << 20;
  std::shared_ptr<net::InFlightBudget> edit_budget_;
  telemetry::Counter* errors_ = nullptr;
  telemetry::LogThrottle log_throttle_;
};

}  // namespace proflow::processors::transform
