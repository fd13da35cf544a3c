#include "core/graph/fanout_consumer.h"

namespace proflow::graph {

FanoutConsumer::FanoutConsumer(std::vector<ConsumerPtr> consumers) : consumers_(std::move(consumers)) {
  for (const auto& c : consumers_) {
    mutates_.push_back(c->capabilities().mutates_data);
    any_durable_ = any_durable_ || proflow::acceptsDurably(*c);
  }
}

Status FanoutConsumer::consume(Batch batch) {
  CombinedAnswer answer;
  for (size_t i = 0; i < consumers_.size(); ++i) {
    // The last one takes the batch itself: nobody here needs it after, so an editor downstream
    // edits it in place when the others kept nothing of it (Batch::mutableData copies otherwise).
    const bool last = i + 1 == consumers_.size();
    Batch b = last ? std::move(batch) : mutates_[i] ? batch.deepCopy() : batch;
    answer.add(consumers_[i]->consume(std::move(b)));
  }
  return answer.result();
}

void CombinedAnswer::add(const Status& s) {
  if (s.isOk()) return;
  if (s.retryable()) {
    if (retryable_.isOk()) retryable_ = s;
  } else if (permanent_.isOk()) {
    permanent_ = s;
  }
}

ConsumerPtr makeFanout(std::vector<ConsumerPtr> consumers) {
  if (consumers.size() == 1) return consumers.front();
  return std::make_shared<FanoutConsumer>(std::move(consumers));
}

}  // namespace proflow::graph
