// Bytes a receiver holds for requests it has admitted but not yet answered: bodies being read,
// inflated, queued for a worker and decoded. One budget per receiver instance, shared by its
// listeners (HTTP server, gRPC service), so memory is refused at the door (429 / RESOURCE_EXHAUSTED)
// instead of being allocated first and refused by the memory_limiter later.
//
//   auto budget = std::make_shared<net::InFlightBudget>(256u << 20);
//   net::InFlightLeasePtr lease;
//   if (Status s = budget->acquire(content_length, &lease); !s.isOk()) return s;  // 429 + Retry-After
//   ...                                   // the lease travels with the request to the worker
//   if (Status s = lease->resize(decoded_size); !s.isOk()) return s;
//   // released when the last copy of the lease is destroyed (the request is answered)
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "core/status.h"

namespace proflow::net {

class InFlightBudget;

// A claim on part of a budget; released when destroyed. Thread-safe.
class InFlightLease {
 public:
  InFlightLease(std::shared_ptr<InFlightBudget> budget, size_t bytes) : budget_(std::move(budget)), bytes_(bytes) {}
  ~InFlightLease();
  InFlightLease(const InFlightLease&) = delete;
  InFlightLease& operator=(const InFlightLease&) = delete;

  // Changes the claim to `total` bytes (e.g. from Content-Length to the decompressed size, then to
  // what decoding will allocate). Shrinking always succeeds. Growing fails like acquire(), leaving
  // the claim unchanged.
  Status resize(size_t total, const char* what = "request");
  size_t bytes() const;

 private:
  std::shared_ptr<InFlightBudget> budget_;
  mutable std::mutex mu_;
  size_t bytes_;
};
using InFlightLeasePtr = std::shared_ptr<InFlightLease>;

class InFlightBudget : public std::enable_shared_from_this<InFlightBudget> {
 public:
  // `limit_bytes` 0 = unlimited (acquire always succeeds, leases still count). `key` names the
  // config key in refusals ("max_in_flight_bytes").
  explicit InFlightBudget(size_t limit_bytes, std::string key = "max_in_flight_bytes");

  // Claims `bytes`. kResourceExhausted (retryable, Retry-After 1s) when other requests hold too
  // much of the budget; kPayloadTooLarge (permanent) when `bytes` alone exceeds it. Messages name
  // the limit and the config key. `what` describes the claim ("request body", "decoded profile").
  Status acquire(size_t bytes, InFlightLeasePtr* out, const char* what = "request body");

  size_t used() const { return used_.load(std::memory_order_relaxed); }
  size_t limit() const { return limit_; }
  // Refusals so far (busy and too large), for counters and tests.
  uint64_t refused() const { return refused_.load(std::memory_order_relaxed); }

 private:
  friend class InFlightLease;
  // Adds `more` to the used bytes when the limit allows it.
  Status reserve(size_t more, size_t claim_total, const char* what);
  void release(size_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }

  const size_t limit_;
  const std::string key_;
  std::atomic<size_t> used_{0};
  std::atomic<uint64_t> refused_{0};
};

}  // namespace proflow::net
