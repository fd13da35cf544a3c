// The `jfr` receiver: POST /v1/jfr and/or a directory of finished recordings.
#pragma once

#include <memory>

#include "core/factory.h"
#include "core/net/http_server.h"
#include "receivers/jfr/config.h"
#include "core/directory_watcher.h"
#include "receivers/jfr/jfr_ingest.h"

namespace proflow::receivers::jfr {

class JfrReceiver final : public Receiver {
 public:
  JfrReceiver(const CreateSettings& settings, JfrReceiverConfig config, ConsumerPtr next);
  ~JfrReceiver() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;
  int port() const { return server_ ? server_->port() : 0; }

 private:
  void handlePost(net::HttpRequest&& req, net::Responder respond);

  CreateSettings settings_;
  JfrReceiverConfig config_;
  JfrIngest ingest_;
  std::unique_ptr<net::HttpServer> server_;
  std::unique_ptr<DirectoryWatcher> watcher_;
};

}  // namespace proflow::receivers::jfr
