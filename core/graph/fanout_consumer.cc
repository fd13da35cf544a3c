#include "core/graph/fanout_consumer.h"

namespace proflow::graph {

FanoutConsumer::FanoutConsumer(std::vector<ConsumerPtr> consumers) : consumers_(std::move(consumers)) {
  for (const auto& c : consumers_) {
    mutates_.push_back(c->capabilities().mutates_data);
    any_durable_ = any_durable_ || proflow::acceptsDurably(*c);
  }
}

Status FanoutConsumer::consume(Batch batch) {
  // The original can go to the last mutating consumer only if no read-only consumer shares it.
  int last_mutator = -1;
  bool any_reader = false;
  for (size_t i = 0; i < consumers_.size(); ++i) {
    if (mutates_[i]) last_mutator = static_cast<int>(i);
    else any_reader = true;
  }
  CombinedAnswer answer;
  for (size_t i = 0; i < consumers_.size(); ++i) {
    Batch b = (!mutates_[i] || (!any_reader && static_cast<int>(i) == last_mutator)) ? batch : batch.deepCopy();
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
