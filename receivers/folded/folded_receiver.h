// `POST /v1/folded`: a body of folded stack lines (`main;work;leaf 42`; raw, gzip or zstd, also as
// Content-Encoding) becomes one OTLP profile. Query parameters are resource attributes, except
// sample_type, sample_unit and period, which override the config for that request. Answers 200, or
// 400 naming the bad line, 413 over the limits, 429 + Retry-After when the pipeline is full.
#pragma once

#include <memory>

#include "core/component/factory.h"
#include "core/net/http_server.h"
#include "core/receiverhelper/pending_requests.h"
#include "receivers/folded/config.h"

namespace proflow::receivers::folded {

inline constexpr const char* kFoldedPath = "/v1/folded";

class FoldedReceiver final : public Receiver {
 public:
  FoldedReceiver(const CreateSettings& settings, FoldedReceiverConfig config, ConsumerPtr next);
  ~FoldedReceiver() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;
  uint16_t port() const { return server_ ? server_->port() : 0; }

 private:
  net::HttpResponse handle(const net::HttpRequest& req);

  CreateSettings settings_;
  FoldedReceiverConfig config_;
  ConsumerPtr next_;
  std::unique_ptr<net::HttpServer> server_;
  receiverhelper::PendingRequests pending_;  // handed to the workers, not answered yet
};

}  // namespace proflow::receivers::folded
