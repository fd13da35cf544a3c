// A read-only look at what the pipelines accepted, for the status page's flame graph. The graph puts
// a TapConsumer between each receiver and its pipelines: after the pipelines accepted a batch it
// hands the tap the batch's immutable flat data (a shared pointer: nothing is copied or converted
// to protobuf). A refused batch is not offered, so a client's retry is not counted twice. Batches
// the pipelines edit are held only when the tap asks for them (holdEdited), because holding one
// makes the editor copy it.
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
  // Asked before a batch goes to pipelines that edit it (a transform, attributes, ...): holding it
  // while they do makes the first editor copy all of it, which costs more than the tap's own work.
  // False: this one is not held, nor offered (the tap counts it skipped).
  virtual bool holdEdited() { return true; }
};

class TapConsumer final : public ProfilesConsumer, public DurableAcceptance {
 public:
  // `edited`: a processor downstream edits the batches (holding one makes it copy the batch).
  TapConsumer(ConsumerPtr next, BatchTap& tap, bool edited = false)
      : next_(std::move(next)), tap_(tap), edited_(edited) {}

  Capabilities capabilities() const override { return next_->capabilities(); }
  bool acceptsDurably() const override { return proflow::acceptsDurably(*next_); }
  Status consume(Batch batch) override {
    if (edited_ && !tap_.holdEdited()) return next_->consume(std::move(batch));
    std::shared_ptr<const flat::Batch> data = batch.shared();
    Status s = next_->consume(std::move(batch));
    if (s.isOk()) tap_.offer(std::move(data));
    return s;
  }

 private:
  ConsumerPtr next_;
  BatchTap& tap_;
  const bool edited_;
};

// `next` behind a TapConsumer when `tap` is set, else `next` itself.
inline ConsumerPtr withTap(ConsumerPtr next, BatchTap* tap, bool edited) {
  if (!tap) return next;
  return std::make_shared<TapConsumer>(std::move(next), *tap, edited);
}

}  // namespace proflow::status
