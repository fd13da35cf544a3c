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

}  // namespace

InFlightLease::~InFlightLease() {
  if (budget_) budget_->release(bytes_);
  // Claims grow with the request's decoding, so the last one is (about) its largest.
  if (bytes_ >= kTrimAfterBytes) releaseFreeHeap();
}

Status InFlightLease::resize(size_t total, const char* what) {
  std::lock_guard<std::mutex> lock(mu_);
  if (total <= bytes_) {
    budget_->release(bytes_ - total);
    bytes_ = total;
    return Status::ok();
  }
  if (Status s = budget_->reserve(total - bytes_, total, what); !s.isOk()) return s;
  bytes_ = total;
  return Status::ok();
}

size_t InFlightLease::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

InFlightBudget::InFlightBudget(size_t limit_bytes, std::string key) : limit_(limit_bytes), key_(std::move(key)) {}

Status InFlightBudget::acquire(size_t bytes, InFlightLeasePtr* out, const char* what) {
  if (Status s = reserve(bytes, bytes, what); !s.isOk()) return s;
  *out = std::make_shared<InFlightLease>(shared_from_this(), bytes);
  return Status::ok();
}

Status InFlightBudget::reserve(size_t more, size_t claim_total, const char* what) {
  if (limit_ == 0) {
    used_.fetch_add(more, std::memory_order_relaxed);
    return Status::ok();
  }
  if (claim_total > limit_) {
    refused_.fetch_add(1, std::memory_order_relaxed);
    return Status::tooLarge(std::string(what) + " needs " + mib(claim_total) + ", more than " + key_ + " (" +
                            mib(limit_) + ")");
  }
  size_t used = used_.load(std::memory_order_relaxed);
  do {
    if (used + more > limit_) {
      refused_.fetch_add(1, std::memory_order_relaxed);
      return Status::exhausted("server busy: " + std::string(what) + " of " + mib(claim_total) + " would exceed " +
                               key_ + " (" + mib(limit_) + ", " + mib(used) + " in use); retry later")
          .withRetryAfter(std::chrono::seconds(1));
    }
  } while (!used_.compare_exchange_weak(used, used + more, std::memory_order_relaxed));
  return Status::ok();
}

}  // namespace proflow::net
