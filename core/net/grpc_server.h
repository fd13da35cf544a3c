// How every gRPC listener here stops: no new calls, in-flight ones given until `deadline` (then
// cancelled), and the server released. gRPC wants a system_clock deadline; ours are steady_clock.
#pragma once

#include <grpcpp/server.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "core/component/component.h"

namespace proflow::net {

inline void shutdownGrpcServer(std::unique_ptr<grpc::Server>& server, Deadline deadline) {
  if (!server) return;
  const auto left = std::max(deadline - std::chrono::steady_clock::now(), std::chrono::steady_clock::duration(0));
  server->Shutdown(std::chrono::system_clock::now() +
                   std::chrono::duration_cast<std::chrono::system_clock::duration>(left));
  server->Wait();
  server.reset();
}

}  // namespace proflow::net
