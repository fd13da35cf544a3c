// `forward_to`: requests passed on to a real Datadog Agent and its answer relayed to the client.
//
// The request goes out as received (method, target, headers, body), except hop-by-hop headers and
// Content-Encoding: the shared HTTP server has already inflated a compressed body, so the Agent gets
// it inflated. The Agent's status, headers and body come back the same way. Bounded: at most
// `forward_workers` exchanges run at once (each within `forward_timeout`), at most
// `max_concurrent_forwards` wait or run (503 beyond), answers over `max_forward_response_size` are
// refused; bodies waiting here hold the receiver's in-flight budget. An unreachable Agent gives 502,
// a slow one 504, each with a text message.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "core/component/factory.h"
#include "core/telemetry/metrics.h"
#include "core/net/http_client.h"
#include "core/net/http_server.h"
#include "receivers/datadog/config.h"

namespace boost::asio {
class thread_pool;
}

namespace proflow::receivers::datadog {

class Forwarder {
 public:
  Forwarder(const CreateSettings& settings, const DatadogReceiverConfig& config);
  ~Forwarder();  // stop()s

  Status start();  // TLS files of forward_tls
  // Answers `respond` with the Agent's answer to `req` (or 502/503/504), from a forward thread.
  void forward(std::shared_ptr<const net::HttpRequest> req, net::Responder respond);
  // Lets queued and running exchanges finish until `deadline`, then drops the queued ones.
  void stop(std::chrono::steady_clock::time_point deadline);

  // The Agent's answer to `req`, synchronously (what forward() runs on a forward thread).
  net::HttpResponse exchange(const net::HttpRequest& req);

 private:
  CreateSettings settings_;
  std::string base_;  // forward_to without a trailing '/'
  std::chrono::milliseconds timeout_;
  int max_pending_;
  int workers_;
  std::unique_ptr<net::HttpClient> client_;
  std::unique_ptr<boost::asio::thread_pool> pool_;
  std::atomic<int> pending_{0};
  telemetry::Counter& forwarded_;
  telemetry::Counter& failed_;
};

}  // namespace proflow::receivers::datadog
