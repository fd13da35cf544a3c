// What a transform's edits add to a batch's memory, charged while they add it: to the in-flight
// lease of the request this thread hands to the pipelines (its receiver's max_in_flight_bytes), or,
// where there is none (behind a batch processor), to the transform's own budget. Edits that build
// ever larger values (a Concat growing an attribute on every sample) are so refused with the
// budget's answer (413 alone too large, 429 while others hold it) instead of exhausting memory.
#pragma once

#include <cstddef>

#include "core/flat/flat_batch.h"
#include "core/net/in_flight_budget.h"
#include "core/util/status.h"

namespace proflow::processors::transform {

class EditCharge {
 public:
  // Growth is counted from `before`, the batch as it came. `fallback` is charged when no request
  // lease is current on this thread.
  EditCharge(const flat::Batch& before, net::InFlightBudget& fallback);

  // Charges the growth of `b` since construction (ahead by a step, so the budget is asked once per
  // step of growth, not once per edit); the budget's refusal when it does not fit.
  Status update(const flat::Batch& b);

 private:
  static constexpr size_t kStep = 1u << 20;

  net::InFlightBudget& fallback_;
  const size_t start_;
  size_t charged_until_;  // memory of the batch covered by the charge so far
  net::InFlightLease* lease_;
  size_t base_ = 0;  // the lease's claim before the edits
  net::InFlightLeasePtr own_;
};

}  // namespace proflow::processors::transform
