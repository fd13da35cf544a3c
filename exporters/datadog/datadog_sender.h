// One delivery attempt: every upload of the batch POSTed as multipart/form-data to the intake (the
// Agent's proxy or Datadog directly). 429/5xx and transport errors are retryable (a retry resends the
// whole batch: at-least-once); 413 and other 4xx drop the batch, counted and logged with the
// intake's message. The API key is never logged.
#pragma once

#include <memory>

#include "core/auth/authenticator.h"
#include "core/exporterhelper/sender.h"
#include "core/component/factory.h"
#include "core/net/http_client.h"
#include "exporters/datadog/config.h"

namespace proflow::exporters::datadog {

class DatadogSender final : public exporterhelper::Sender {
 public:
  DatadogSender(const CreateSettings& settings, DatadogExporterConfig config);
  ~DatadogSender() override;

  Status start(Host& host) override;
  Status push(const Batch& batch, Deadline deadline) override;

 private:
  CreateSettings settings_;
  DatadogExporterConfig config_;
  const auth::ClientAuthenticator* client_auth_ = nullptr;  // from config `auth`; owned by the service
  std::unique_ptr<net::HttpClient> client_;
};

}  // namespace proflow::exporters::datadog
