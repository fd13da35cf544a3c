#include "core/net/in_flight_budget.h"

#include <malloc.h>

#include <string>

namespace proflow::net {
namespace {

// A request that held this much leaves as much freed heap behind, in the malloc arena of whichever
// worker decoded it; glibc keeps it (only the top of a heap is trimmed), and the next large request
// on another worker's arena adds its own. Handing free pages back when such a request ends keeps the
// resident size near what requests in flight hold.
constexpr size_t kTrimAfterBytes = 64u << 20;

void releaseFreeHeap() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

std::string mib(size_t n) {
  if (n >= (1u << 20)) return std::to_string((n + (1u << 19)) >> 20) + "MiB";
  return std::to_string(n) + " bytes";
}

thread_local InFlightLease* current_lease = nullptr;

}  // namespace

CurrentLease::CurrentLease(InFlightLease* lease) : previous_(current_lease) { current_lease = lease; }

CurrentLease::~CurrentLease() { current_lease = previous_; }

InFlightLease* CurrentLease::get() { return current_lease; }

InFlightLease::~InFlightLease() {
  if (budget_) budget_->release(bytes_);
  // Claims grow with the request's decoding, so the last one is (about) its largest.
  if (bytes_ >= kTrimAfterBytes) releaseFreeHeap();
}

Status InFlightLease::resize(size_t total, const char* what, Growth growth) {
  std::lock_guard<std::mutex> lock(mu_);
  if (total <= bytes_) {
    budget_->release(bytes_ - total);
    bytes_ = total;
    return Status::ok();
  }
  if (Status s = budget_->grow(total - bytes_, total, what, growth); !s.isOk()) return s;
  bytes_ = total;
  return Status::ok();
}

size_t InFlightLease::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

InFlightBudget::InFlightBudget(size_t limit_bytes, std::string key, std::chrono::milliseconds growth_wait)
    : limit_(limit_bytes), key_(std::move(key)), growth_wait_(growth_wait) {}

Status InFlightBudget::acquire(size_t bytes, InFlightLeasePtr* out, const char* what) {
  if (limit_ != 0) {
    if (bytes > limit_) return tooLarge(what, bytes);
    if (waiting_.load() || !tryAdmit(bytes, true)) return busy(what, bytes);
  } else {
    used_.fetch_add(bytes);
  }
  *out = std::make_shared<InFlightLease>(shared_from_this(), bytes);
  return Status::ok();
}

Status InFlightBudget::admit(size_t declared, InFlightLeasePtr* out, const char* what) {
  if (limit_ != 0) {
    if (declared > limit_) return tooLarge(what, declared);
    const size_t used = used_.load();
    const size_t cap = used == 0 ? limit_ : limit_ / 2;  // as tryAdmit, without claiming
    if (waiting_.load() || used + declared > cap) return busy(what, declared);
  }
  *out = std::make_shared<InFlightLease>(shared_from_this(), 0);
  return Status::ok();
}

bool InFlightBudget::tryAdmit(size_t bytes, bool alone) {
  size_t used = used_.load();
  do {
    // Half the budget for bodies, the rest kept for the growth of requests already admitted; a
    // body larger than half only when nothing else is in flight.
    size_t cap = alone && used == 0 ? limit_ : limit_ / 2;
    if (used + bytes > cap) return false;
  } while (!used_.compare_exchange_weak(used, used + bytes));
  return true;
}

bool InFlightBudget::tryReserve(size_t more, size_t cap) {
  size_t used = used_.load();
  do {
    if (used + more > cap) return false;
  } while (!used_.compare_exchange_weak(used, used + more));
  return true;
}

Status InFlightBudget::grow(size_t more, size_t claim_total, const char* what, InFlightLease::Growth growth) {
  if (limit_ == 0) {
    used_.fetch_add(more);
    return Status::ok();
  }
  if (claim_total > limit_) return tooLarge(what, claim_total);
  if (growth == InFlightLease::Growth::kBody) {
    // A body alone in flight (its own bytes are all that is used) may grow to the whole budget.
    bool alone = used_.load() == claim_total - more;
    return !waiting_.load() && (tryAdmit(more, false) || (alone && tryReserve(more, limit_))) ? Status::ok()
                                                                                             : busy(what, claim_total);
  }
  if (!waiting_.load() && tryReserve(more, limit_)) return Status::ok();
  if (growth == InFlightLease::Growth::kNoWait) return busy(what, claim_total);
  std::unique_lock<std::mutex> lock(wait_mu_);
  if (waiting_.load()) return busy(what, claim_total);  // another growth is first in line
  waiting_.store(true);
  bool fits = released_.wait_for(lock, growth_wait_, [&] { return tryReserve(more, limit_); });
  waiting_.store(false);
  return fits ? Status::ok() : busy(what, claim_total);
}

void InFlightBudget::release(size_t bytes) {
  used_.fetch_sub(bytes);
  if (waiting_.load()) {
    std::lock_guard<std::mutex> lock(wait_mu_);
    released_.notify_all();
  }
}

Status InFlightBudget::busy(const char* what, size_t claim_total) {
  refused_.fetch_add(1, std::memory_order_relaxed);
  return Status::exhausted("server busy: " + std::string(what) + " of " + mib(claim_total) + " would exceed " + key_ +
                           " (" + mib(limit_) + ", " + mib(used_.load()) + " in use); retry later")
      .withRetryAfter(std::chrono::seconds(1));
}

Status InFlightBudget::tooLarge(const char* what, size_t claim_total) {
  refused_.fetch_add(1, std::memory_order_relaxed);
  return Status::tooLarge(std::string(what) + " needs " + mib(claim_total) + ", more than " + key_ + " (" +
                          mib(limit_) + ")");
}

}  // namespace proflow::net
