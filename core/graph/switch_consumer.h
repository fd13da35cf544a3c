// An edge whose downstream can be re-pointed while batches flow through it: what a reload uses to
// move traffic from the old chain to the new one without closing anything upstream. Every receiver
// and processor feeds one, and every exporter is fed through one.
//
// A call is counted on the route it started on and finishes there, so after repoint() the old chain
// only sees the calls already in it; waitIdle() tells when they are done and the old chain may shut
// down. pause() holds new calls (they wait, nothing is refused) while an exporter is replaced in
// place; resume() lets them through to the new target.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>

#include "core/component/component.h"
#include "core/component/consumer.h"
#include "core/component/durable_acceptance.h"

namespace proflow::graph {

class SwitchConsumer final : public ProfilesConsumer, public DurableAcceptance {
 public:
  struct Route;
  using RoutePtr = std::shared_ptr<Route>;

  explicit SwitchConsumer(ConsumerPtr next);
  ~SwitchConsumer() override;

  Capabilities capabilities() const override;
  bool acceptsDurably() const override;
  // Forwards to the current target. After close(): a retryable UNAVAILABLE.
  Status consume(Batch batch) override;

  // New calls go to `next`; returns the route calls went to until now (for waitIdle).
  RoutePtr repoint(ConsumerPtr next);
  // New calls are refused (retryable) from now on; returns the previous route.
  RoutePtr close();
  // Until `deadline`, waits for every call that started on `route` to return; false on timeout.
  [[nodiscard]] bool waitIdle(const RoutePtr& route, Deadline deadline);

  // Holds new calls until resume(); returns once the calls in progress returned (or the deadline).
  [[nodiscard]] bool pause(Deadline deadline);
  // Points at `next` and releases the held calls to it.
  void resume(ConsumerPtr next);

  ConsumerPtr target() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  RoutePtr route_;
  bool paused_ = false;
  int idle_waiters_ = 0;  // callers of waitIdle/pause: a call ending a route's last wakes them
};

}  // namespace proflow::graph
