// The `perf` receiver: POST /v1/perf and/or a directory of finished recordings.
#pragma once

#include <memory>

#include "core/directory_watcher.h"
#include "core/factory.h"
#include "core/net/http_server.h"
#include "receivers/perf/config.h"
#include "receivers/perf/perf_ingest.h"

namespace proflow::receivers::perf {

class PerfReceiver final : public Receiver {
 public:
  PerfReceiver(const CreateSettings& settings, PerfReceiverConfig config, ConsumerPtr next);
  ~PerfReceiver() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;
  int port() const { return server_ ? server_->port() : 0; }

 private:
  void handlePost(net::HttpRequest&& req, net::Responder respond);

  CreateSettings settings_;
  PerfReceiverConfig config_;
  PerfIngest ingest_;
  std::unique_ptr<net::HttpServer> server_;
  std::unique_ptr<DirectoryWatcher> watcher_;
};

}  // namespace proflow::receivers::perf
