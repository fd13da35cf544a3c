// OTLP/HTTP: POST /v1development/profiles with application/x-protobuf or application/json bodies
// (gzip/zstd/deflate Content-Encoding handled by the shared HTTP server, with the size and
// inflate-ratio caps applied after decompression). Decoding runs on the worker pool.
#pragma once

#include <memory>

#include "core/component/consumer.h"
#include "core/component/factory.h"
#include "core/net/http_server.h"
#include "receivers/otlp/config.h"

namespace proflow::receivers::otlp {

class HttpTransport {
 public:
  HttpTransport(const CreateSettings& settings, HttpProtocolConfig config, ConsumerPtr next,
                const net::ServerLimitsConfig& limits, std::shared_ptr<net::InFlightBudget> budget);
  ~HttpTransport();

  Status start(Host& host);
  void shutdown(Deadline deadline);
  int port() const { return server_ ? server_->port() : 0; }

 private:
  void handle(net::HttpRequest&& request, net::Responder respond);

  CreateSettings settings_;
  HttpProtocolConfig config_;
  ConsumerPtr next_;
  net::ServerLimitsConfig limits_;
  std::shared_ptr<net::InFlightBudget> budget_;
  std::unique_ptr<net::HttpServer> server_;
};

// google.rpc.Status body in the request's encoding (protobuf or JSON), as OTLP/HTTP requires.
net::HttpResponse otlpErrorResponse(const Status& status, const net::HttpRequest& request);

}  // namespace proflow::receivers::otlp
