// The `pyroscope` receiver: Pyroscope's legacy ingest API (`POST /ingest`, alias `/pyroscope/ingest`)
// on the shared HTTP server. Bodies are converted on the worker pool; the answer follows Pyroscope:
// 200 with an empty body on success (SDKs treat anything else as a failure), otherwise a JSON
// `{"code": "<connect code>", "message": "..."}` with 400 (bad query), 413 (too large), 422 (body
// not usable, or refused for good downstream) or 429 + Retry-After (pipeline busy: retry later).
#pragma once

#include <memory>

#include "core/component/factory.h"
#include "core/net/http_server.h"
#include "receivers/pyroscope/config.h"

namespace proflow::receivers::pyroscope {

class PyroscopeReceiver final : public Receiver {
 public:
  PyroscopeReceiver(const CreateSettings& settings, PyroscopeReceiverConfig config, ConsumerPtr next);
  ~PyroscopeReceiver() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;
  int port() const { return server_ ? server_->port() : 0; }  // bound port (useful with port 0)

  struct State;  // what in-flight requests keep alive

 private:
  std::shared_ptr<State> state_;
  std::unique_ptr<net::HttpServer> server_;
};

// Pyroscope's error body for `status` (code name from the status, e.g. "invalid_argument").
net::HttpResponse pyroscopeError(int http_status, const Status& status);

}  // namespace proflow::receivers::pyroscope
