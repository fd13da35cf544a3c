#include "processors/transform/edit_charge.h"

namespace proflow::processors::transform {

EditCharge::EditCharge(const flat::Batch& before, net::InFlightBudget& fallback)
    : fallback_(fallback), start_(before.memoryBytes()), charged_until_(start_), lease_(net::CurrentLease::get()) {
  if (lease_) base_ = lease_->bytes();
}

Status EditCharge::update(const flat::Batch& b) {
  const size_t now = b.memoryBytes();
  if (now <= charged_until_) return Status::ok();
  if (!lease_) {
    if (Status s = fallback_.acquire(0, &own_, "batch edits"); !s.isOk()) return s;
    lease_ = own_.get();
  }
  const size_t total = base_ + (now - start_) + kStep;
  if (total > lease_->bytes()) {  // never below what others on the request's path charged meanwhile
    Status s = lease_->resize(total, "request grown by the transform's edits", net::InFlightLease::Growth::kNoWait);
    if (!s.isOk()) return Status(s.code(), "transform: " + s.message()).withRetryAfter(s.retryAfter());
  }
  charged_until_ = now + kStep;
  return Status::ok();
}

}  // namespace proflow::processors::transform
