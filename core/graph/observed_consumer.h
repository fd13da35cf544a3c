// Counts what passes through a consumer edge, so every component gets its standard counters without
// writing any code: the graph puts one in front of each processor and exporter (received / accepted /
// refused), one between a receiver and its pipelines (same events, from the receiver's view), and
// one after each processor (sent).
#pragma once

#include "core/component/consumer.h"
#include "core/component/durable_acceptance.h"
#include "core/telemetry/component_telemetry.h"

namespace proflow::graph {

class ObservedConsumer final : public ProfilesConsumer, public DurableAcceptance {
 public:
  enum class Role {
    kInbound,   // in front of a component, or after a receiver: received, then accepted or refused
    kOutbound,  // after a processor: sent (or refused by downstream)
  };
  ObservedConsumer(ConsumerPtr next, telemetry::ComponentTelemetry& telemetry, Role role)
      : next_(std::move(next)), telemetry_(telemetry), role_(role) {}

  Capabilities capabilities() const override { return next_->capabilities(); }
  bool acceptsDurably() const override { return proflow::acceptsDurably(*next_); }
  Status consume(Batch batch) override;

 private:
  ConsumerPtr next_;
  telemetry::ComponentTelemetry& telemetry_;
  Role role_;
};

}  // namespace proflow::graph
