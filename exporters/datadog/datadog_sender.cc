#include "exporters/datadog/datadog_sender.h"

#include <spdlog/logger.h>

#include "core/auth/client_auth.h"
#include "exporters/datadog/upload.h"

namespace proflow::exporters::datadog {

DatadogSender::DatadogSender(const CreateSettings& settings, DatadogExporterConfig config)
    : settings_(settings), config_(std::move(config)) {}

DatadogSender::~DatadogSender() = default;

Status DatadogSender::start(Host& host) {
  if (Status s = auth::findClientAuthenticator(host, config_.auth, &client_auth_); !s.isOk()) return s;
  net::HttpClientOptions opts;
  opts.tls = config_.tls.clientOptions();
  opts.max_response_bytes = 64u << 10;  // error bodies are quoted, not stored
  client_ = std::make_unique<net::HttpClient>(opts);
  if (Status s = client_->tlsStatus(); !s.isOk()) return Status(s.code(), "datadog exporter TLS: " + s.message());
  settings_.logger->info("Datadog exporter uploading to {}{}", config_.intakeUrl(),
                         config_.api_key.empty() ? "" : " with an API key");
  return Status::ok();
}

Status DatadogSender::push(const Batch& batch, Deadline deadline) {
  std::vector<Upload> uploads;
  if (Status s = buildUploads(batch.data(), config_.tags, &uploads); !s.isOk())
    return Status::invalid("datadog: cannot convert the batch to pprof: " + s.message());
  for (const auto& u : uploads) {
    std::string content_type;
    const std::string body = encodeMultipart(u, &content_type);
    net::HttpHeaders headers{{"Content-Type", content_type}, {"DD-EVP-ORIGIN", "proflow"},
                             {"DD-EVP-ORIGIN-VERSION", PROFLOW_VERSION}};
    if (!config_.api_key.empty()) headers.emplace("DD-API-KEY", config_.api_key);
    auth::addClientHeaders(client_auth_, batch.metadata().get(), &headers);
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return Status(StatusCode::kDeadlineExceeded, "datadog: no time left for the upload");
    net::HttpResult r = client_->request("POST", config_.intakeUrl(), headers, body, left);
    Status s = r.toStatus();
    if (!s.isOk()) return Status(s.code(), "datadog intake: " + s.message()).withRetryAfter(s.retryAfter());
    settings_.telemetry->bytesOut(body.size());
  }
  return Status::ok();
}

}  // namespace proflow::exporters::datadog
