#include "core/graph/switch_consumer.h"

namespace proflow::graph {

struct SwitchConsumer::Route {
  ConsumerPtr next;  // null: closed
  int in_flight = 0;
};

SwitchConsumer::SwitchConsumer(ConsumerPtr next) : route_(std::make_shared<Route>()) { route_->next = std::move(next); }

SwitchConsumer::~SwitchConsumer() = default;

ConsumerPtr SwitchConsumer::target() const {
  std::lock_guard lock(mu_);
  return route_->next;
}

Capabilities SwitchConsumer::capabilities() const {
  ConsumerPtr next = target();
  return next ? next->capabilities() : Capabilities{};
}

bool SwitchConsumer::acceptsDurably() const {
  ConsumerPtr next = target();
  return next && proflow::acceptsDurably(*next);
}

Status SwitchConsumer::consume(Batch batch) {
  RoutePtr route;
  {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return !paused_; });
    route = route_;
    ++route->in_flight;
  }
  Status s = route->next ? route->next->consume(std::move(batch))
                         : Status::unavailable("pipeline is being reconfigured or removed; retry");
  bool wake;
  {
    std::lock_guard lock(mu_);
    wake = --route->in_flight == 0 && idle_waiters_ > 0;
  }
  if (wake) cv_.notify_all();
  return s;
}

SwitchConsumer::RoutePtr SwitchConsumer::repoint(ConsumerPtr next) {
  auto fresh = std::make_shared<Route>();
  fresh->next = std::move(next);
  std::lock_guard lock(mu_);
  RoutePtr old = std::move(route_);
  route_ = std::move(fresh);
  return old;
}

SwitchConsumer::RoutePtr SwitchConsumer::close() { return repoint(nullptr); }

bool SwitchConsumer::waitIdle(const RoutePtr& route, Deadline deadline) {
  std::unique_lock lock(mu_);
  ++idle_waiters_;
  const bool idle = cv_.wait_until(lock, deadline, [&] { return route->in_flight == 0; });
  --idle_waiters_;
  return idle;
}

bool SwitchConsumer::pause(Deadline deadline) {
  RoutePtr route;
  {
    std::lock_guard lock(mu_);
    paused_ = true;
    route = route_;
  }
  return waitIdle(route, deadline);
}

void SwitchConsumer::resume(ConsumerPtr next) {
  auto fresh = std::make_shared<Route>();
  fresh->next = std::move(next);
  {
    std::lock_guard lock(mu_);
    route_ = std::move(fresh);
    paused_ = false;
  }
  cv_.notify_all();
}

}  // namespace proflow::graph
