// A read-only look at what the pipelines accepted, for the status page's flame graph. The graph puts
// a TapConsumer between each receiver and its pipelines: after the pipelines accepted a batch it
// hands the tap the batch's immutable flat data (a shared pointer: nothing is copied or converted
// to protobuf). A refused batch is not offered, so a client's retry is not counted twice.
#pragma once

#include <memory>

#include "core/component/consumer.h"
#include "core/component/durable_acceptance.h"
#include "core/flat/flat_batch.h"

namespace proflow::status {

class BatchTap {
 public:
  virtual ~BatchTap() = default;
  // Called on the pipeline's thread: must return at once (queue the work, or drop it and count).
  virtual void offer(std::shared_ptr<const flat::Batch> batch) = 0;
};

class TapConsumer final : public ProfilesConsumer, public DurableAcceptance {
 public:
  TapConsumer(ConsumerPtr next, BatchTap& tap) : next_(std::move(next)), tap_(tap) {}

  Capabilities capabilities() const override { return next_->capabilities(); }
  bool acceptsDurably() const override { return proflow::acceptsDurably(*next_); }
  Status consume(Batch batch) override {
    std::shared_ptr<const flat::Batch> data = batch.shared();
    Status s = next_->consume(std::move(batch));
    if (s.isOk()) tap_.offer(std::move(data));
    return s;
  }

 private:
  ConsumerPtr next_;
  BatchTap& tap_;
};

// `next` behind a TapConsumer when `tap` is set, else `next` itself.
inline ConsumerPtr withTap(ConsumerPtr next, BatchTap* tap) {
  if (!tap) return next;
  return std::make_shared<TapConsumer>(std::move(next), *tap);
}

}  // namespace proflow::status
