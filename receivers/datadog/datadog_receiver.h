// The `datadog` receiver: a Datadog Agent look-alike on the shared HTTP server. Profile uploads
// (`POST /profiling/v1/input`) are decoded on the worker pool into one flat batch each; `GET /info`
// and the Agent's other paths are answered here (and their payloads dropped), or, with `forward_to`,
// every request is passed on to a real Agent whose answer is returned, while profile uploads are
// also decoded into the pipeline (a tap: the client gets the Agent's answer whatever the decode says).
#pragma once

#include <memory>

#include "core/component/factory.h"
#include "core/net/http_server.h"
#include "receivers/datadog/config.h"

namespace proflow::receivers::datadog {

class DatadogReceiver final : public Receiver {
 public:
  DatadogReceiver(const CreateSettings& settings, DatadogReceiverConfig config, ConsumerPtr next);
  ~DatadogReceiver() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;
  int port() const { return server_ ? server_->port() : 0; }  // bound port (useful with port 0)

  struct State;  // what in-flight requests keep alive

 private:
  std::shared_ptr<State> state_;
  std::unique_ptr<net::HttpServer> server_;
};

}  // namespace proflow::receivers::datadog
