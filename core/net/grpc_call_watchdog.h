// Cancels a gRPC callback call that stalls: a client that opens a call and never sends its message,
// or never reads (grants no flow-control window for) its answer, would otherwise keep the call and
// whatever it holds for as long as its connection stays open.
#pragma once

#include <grpcpp/server_context.h>

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <functional>
#include <memory>

namespace proflow::net {

class GrpcCallWatchdog {
 public:
  GrpcCallWatchdog(boost::asio::io_context& io, grpc::CallbackServerContext* ctx);
  ~GrpcCallWatchdog() { done(); }
  GrpcCallWatchdog(const GrpcCallWatchdog&) = delete;
  GrpcCallWatchdog& operator=(const GrpcCallWatchdog&) = delete;

  // Unless disarm(), arm() or done() comes first, after `timeout` the call is cancelled and then
  // `expired` runs (on an I/O thread; done() waits for it to return). Arming again replaces the
  // previous deadline.
  void arm(std::chrono::nanoseconds timeout, std::function<void()> expired);
  void disarm();
  // The call is finished (OnDone): nothing armed runs any more.
  void done();

 private:
  struct State;
  std::shared_ptr<State> state_;  // shared with the pending timer handler, which may outlive the call
};

}  // namespace proflow::net
