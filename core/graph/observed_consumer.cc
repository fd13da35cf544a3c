#include "core/graph/observed_consumer.h"

namespace proflow::graph {

using telemetry::Event;

Status ObservedConsumer::consume(Batch batch) {
  const BatchCounts counts = batch.counts();
  if (role_ == Role::kInbound) telemetry_.record(Event::kReceived, counts);
  Status s = next_->consume(std::move(batch));
  if (role_ == Role::kInbound) {
    telemetry_.record(s.isOk() ? Event::kAccepted : Event::kRefused, counts);
  } else if (s.isOk()) {
    telemetry_.record(Event::kSent, counts);
  } else {
    telemetry_.record(s.retryable() ? Event::kRefused : Event::kFailed, counts);
  }
  return s;
}

}  // namespace proflow::graph
