#include "core/net/grpc_call_watchdog.h"

#include <boost/asio/steady_timer.hpp>

#include <mutex>

namespace proflow::net {

struct GrpcCallWatchdog::State {
  State(boost::asio::io_context& io, grpc::CallbackServerContext* c) : timer(io), ctx(c) {}
  // Recursive: should cancelling the call finish it on this thread, OnDone's done() comes back in.
  std::recursive_mutex mu;
  boost::asio::steady_timer timer;
  grpc::CallbackServerContext* ctx;  // null once the call is done
  uint64_t generation = 0;           // a handler of an older arm() does nothing
  std::function<void()> expired;
};

GrpcCallWatchdog::GrpcCallWatchdog(boost::asio::io_context& io, grpc::CallbackServerContext* ctx)
    : state_(std::make_shared<State>(io, ctx)) {}

void GrpcCallWatchdog::arm(std::chrono::nanoseconds timeout, std::function<void()> expired) {
  std::lock_guard lock(state_->mu);
  if (!state_->ctx) return;
  const uint64_t generation = ++state_->generation;
  state_->expired = std::move(expired);
  state_->timer.expires_after(timeout);
  state_->timer.async_wait([state = state_, generation](const boost::system::error_code& ec) {
    if (ec) return;
    // Under the lock, so that done() (the call finishing) waits for it: what `expired` uses may
    // be gone once the call is.
    std::lock_guard lock(state->mu);
    if (generation != state->generation || !state->ctx) return;
    state->ctx->TryCancel();
    if (auto expired = std::move(state->expired)) expired();
  });
}

void GrpcCallWatchdog::disarm() {
  std::lock_guard lock(state_->mu);
  ++state_->generation;
  state_->expired = nullptr;
  state_->timer.cancel();
}

void GrpcCallWatchdog::done() {
  std::lock_guard lock(state_->mu);
  state_->ctx = nullptr;
  ++state_->generation;
  state_->expired = nullptr;
  state_->timer.cancel();
}

}  // namespace proflow::net
