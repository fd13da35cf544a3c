// HTTP push: POST /v1/pprof with a pprof body (raw, gzip or zstd by magic bytes; Content-Encoding
// is undone by the shared server). Query parameters become resource attributes, over the
// configured ones. Decoding and conversion run on the worker pool, never on the I/O thread.
#pragma once

#include <memory>

#include "core/component/consumer.h"
#include "core/component/factory.h"
#include "core/net/http_server.h"
#include "receivers/pprof/config.h"

namespace proflow::receivers::pprof {

inline constexpr const char* kPushPath = "/v1/pprof";

class PushServer {
 public:
  PushServer(const CreateSettings& settings, const PprofReceiverConfig& config, ConsumerPtr next);
  ~PushServer();

  Status start(Host& host);
  void stop();
  int port() const { return server_ ? server_->port() : 0; }

 private:
  struct Context;  // what queued worker tasks need, kept alive by them
  CreateSettings settings_;
  std::shared_ptr<Context> ctx_;
  std::unique_ptr<net::HttpServer> server_;
};

}  // namespace proflow::receivers::pprof
