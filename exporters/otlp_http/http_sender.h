// One OTLP/HTTP POST per attempt; the exporter helper queues and retries around it.
#pragma once

#include <memory>

#include "core/auth/authenticator.h"
#include "core/exporterhelper/sender.h"
#include "core/exporterhelper/utf8_guard.h"
#include "core/component/factory.h"
#include "core/net/http_client.h"
#include "exporters/otlp_http/config.h"

namespace proflow::exporters::otlphttp {

// Serialized and compressed request body with the headers that describe it.
struct EncodedRequest {
  std::string body;
  net::HttpHeaders headers;
  size_t uncompressed_size = 0;
};

// Pure encoding step (tests check payloads without a network). `data` is the batch's flat data,
// its strings valid UTF-8 (Utf8Guard).
Status encodeRequest(const OtlpHttpExporterConfig& config, const flat::Batch& data, EncodedRequest* out);
inline Status encodeRequest(const OtlpHttpExporterConfig& config, const Batch& batch, EncodedRequest* out) {
  return encodeRequest(config, batch.data(), out);
}

class HttpSender final : public exporterhelper::Sender {
 public:
  HttpSender(const CreateSettings& settings, OtlpHttpExporterConfig config);
  Status start(Host& host) override;
  Status push(const Batch& batch, Deadline deadline) override;

 private:
  CreateSettings settings_;
  OtlpHttpExporterConfig config_;
  exporterhelper::Utf8Guard utf8_;
  const auth::ClientAuthenticator* client_auth_ = nullptr;  // from config `auth`; owned by the service
  std::string url_;
  std::unique_ptr<net::HttpClient> client_;
};

}  // namespace proflow::exporters::otlphttp
