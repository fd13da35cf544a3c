// Hands one batch to several consumers: read-only consumers share the request, each mutating
// consumer gets its own deep copy, and the last consumer takes the batch itself (moved, so what
// edits it downstream copies it only if another consumer kept it).
#pragma once

#include <vector>

#include "core/component/consumer.h"
#include "core/component/durable_acceptance.h"

namespace proflow::graph {

// The answer to a sender whose batch went several ways: the first retryable refusal (the client
// resends), else the first permanent one, else OK.
class CombinedAnswer {
 public:
  void add(const Status& s);
  Status result() const { return retryable_.isOk() ? permanent_ : retryable_; }

 private:
  Status retryable_, permanent_;
};

class FanoutConsumer final : public ProfilesConsumer, public DurableAcceptance {
 public:
  explicit FanoutConsumer(std::vector<ConsumerPtr> consumers);

  Capabilities capabilities() const override { return {}; }
  // Durable when any consumer is: a batch held upstream must reach that consumer's storage first.
  bool acceptsDurably() const override { return any_durable_; }
  // All consumers get the batch. If any refused, the result is a refusal: a retryable one if any
  // consumer asked to retry (the client resends; consumers that took it see a duplicate, which OTLP
  // allows), else the first permanent error.
  Status consume(Batch batch) override;

 private:
  std::vector<ConsumerPtr> consumers_;
  std::vector<bool> mutates_;
  bool any_durable_ = false;
};

// Returns `consumers[0]` when there is one, else a FanoutConsumer.
ConsumerPtr makeFanout(std::vector<ConsumerPtr> consumers);

}  // namespace proflow::graph
