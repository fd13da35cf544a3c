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
//
// Progress under a crowd: a request is admitted with its body and grows its claim to what decoding
// will hold only once the body is read. If bodies could fill the whole budget, every growth would be
// refused while a crowd of retrying clients keeps it full, and nothing would ever be decoded. So
// new bodies may take at most half of the budget (a body larger than that only when nothing else
// is in flight), and a growth that does not fit waits, one at a time, for bytes to be released:
// while it waits the door is closed to new bodies and to other growths (they are answered 429 and
// release what they hold), so the waiting request gets the budget as soon as decodes in progress end.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "core/util/status.h"

namespace proflow::net {

class InFlightBudget;

// A claim on part of a budget; released when destroyed. Thread-safe.
class InFlightLease {
 public:
  InFlightLease(std::shared_ptr<InFlightBudget> budget, size_t bytes) : budget_(std::move(budget)), bytes_(bytes) {}
  ~InFlightLease();
  InFlightLease(const InFlightLease&) = delete;
  InFlightLease& operator=(const InFlightLease&) = delete;

  // How a growing claim is admitted.
  enum class Growth {
    kWait,    // on a worker, for what decoding will hold: may wait for the budget (see above)
    kNoWait,  // on an I/O thread (e.g. the inflated body): fits now or is refused
    kBody,    // more body bytes arriving (chunked): within the bodies' share, like acquire()
  };

  // Changes the claim to `total` bytes (e.g. from Content-Length to the decompressed size, then to
  // what decoding will allocate). Shrinking always succeeds. Growing fails like acquire(), leaving
  // the claim unchanged.
  Status resize(size_t total, const char* what = "request", Growth growth = Growth::kWait);
  size_t bytes() const;

 private:
  std::shared_ptr<InFlightBudget> budget_;
  mutable std::mutex mu_;
  size_t bytes_;
};
using InFlightLeasePtr = std::shared_ptr<InFlightLease>;

// The lease of the request this thread is handing to the pipelines, while a receiver does so:
// components that run on the caller's thread and make the request grow (a transform editing the
// batch) charge their growth to it, so the request is refused at its receiver's budget instead of
// growing without bound. Scoped; nests (the previous one is restored).
class CurrentLease {
 public:
  explicit CurrentLease(InFlightLease* lease);  // null: no lease for this scope
  ~CurrentLease();
  CurrentLease(const CurrentLease&) = delete;
  CurrentLease& operator=(const CurrentLease&) = delete;

  // The innermost lease set on this thread; null when none.
  static InFlightLease* get();

 private:
  InFlightLease* previous_;
};

class InFlightBudget : public std::enable_shared_from_this<InFlightBudget> {
 public:
  // How long a growth waits for the budget before it is answered 429. It holds a worker meanwhile.
  static constexpr std::chrono::milliseconds kDefaultGrowthWait{5000};

  // `limit_bytes` 0 = unlimited (acquire always succeeds, leases still count). `key` names the
  // config key in refusals ("max_in_flight_bytes").
  explicit InFlightBudget(size_t limit_bytes, std::string key = "max_in_flight_bytes",
                          std::chrono::milliseconds growth_wait = kDefaultGrowthWait);

  // Claims `bytes` for a new request. kResourceExhausted (retryable, Retry-After 1s) when other
  // requests hold too much of the budget; kPayloadTooLarge (permanent) when `bytes` alone exceeds
  // it. Messages name the limit and the config key. `what` describes the claim ("request body").
  Status acquire(size_t bytes, InFlightLeasePtr* out, const char* what = "request body");
  // The door check of a body that is claimed as it arrives: refused like acquire() when `declared`
  // bytes would not fit beside what is held now, else a lease of 0 bytes that the body grows
  // (InFlightLease::resize with Growth::kBody). A client that stalls holds only what it sent.
  Status admit(size_t declared, InFlightLeasePtr* out, const char* what = "request body");

  size_t used() const { return used_.load(); }
  size_t limit() const { return limit_; }
  // True while a growing claim waits for the budget (new bodies are refused meanwhile).
  bool growthWaiting() const { return waiting_.load(); }
  // Refusals so far (busy and too large), for counters and tests.
  uint64_t refused() const { return refused_.load(std::memory_order_relaxed); }

 private:
  friend class InFlightLease;
  // Adds `more` to the used bytes for a claim growing to `claim_total`.
  Status grow(size_t more, size_t claim_total, const char* what, InFlightLease::Growth growth);
  // Adds `bytes` of a body within the share kept for bodies (the whole budget when `alone`, nothing
  // else being in flight).
  [[nodiscard]] bool tryAdmit(size_t bytes, bool alone);
  // Adds `more` when the used bytes stay within `cap`.
  [[nodiscard]] bool tryReserve(size_t more, size_t cap);
  void release(size_t bytes);
  Status busy(const char* what, size_t claim_total);
  Status tooLarge(const char* what, size_t claim_total);

  const size_t limit_;
  const std::string key_;
  const std::chrono::milliseconds growth_wait_;
  // Sequentially consistent, with waiting_: a release either sees the waiter's flag or the waiter
  // sees the released bytes.
  std::atomic<size_t> used_{0};
  std::atomic<bool> waiting_{false};
  std::atomic<uint64_t> refused_{0};
  std::mutex wait_mu_;
  std::condition_variable released_;
};

}  // namespace proflow::net
