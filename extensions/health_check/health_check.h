// The `health_check` extension: answers GET <path> with 200 while every pipeline runs and 503 while
// the daemon starts, after a component failed, and once shutdown began, in the Collector's shape:
//   {"status":"Server available","upSince":"2026-12-07T10:00:00Z","uptime":"1h2m3.5s"}
//   {"status":"Server not available","upSince":"0001-01-01T00:00:00Z","uptime":""}
// (or the fixed response_body). It listens from start(), before the pipelines, so a readiness
// probe sees 503 until they run.
#pragma once

#include <memory>

#include "core/component/factory.h"
#include "core/net/http_server.h"
#include "extensions/health_check/config.h"

namespace proflow::extensions::health_check {

class HealthCheck final : public Extension {
 public:
  HealthCheck(const CreateSettings& settings, HealthCheckConfig config);
  ~HealthCheck() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;

 private:
  net::HttpResponse answer() const;

  CreateSettings settings_;
  HealthCheckConfig config_;
  Host* host_ = nullptr;
  std::unique_ptr<net::HttpServer> http_;
};

}  // namespace proflow::extensions::health_check
