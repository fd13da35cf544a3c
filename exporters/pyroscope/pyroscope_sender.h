// One delivery attempt to Pyroscope: the push API (one Connect unary call carrying every series of
// the batch) or the legacy /ingest API (one POST per rebuilt pprof). The exporter helper queues and
// retries around it: 429/502/503/504 and transport errors are retryable (Retry-After honoured), any
// other 4xx/5xx drops the batch with the server's error body in the message.
#pragma once

#include <memory>

#include "core/auth/authenticator.h"
#include "core/exporterhelper/sender.h"
#include "core/component/factory.h"
#include "core/net/http_client.h"
#include "exporters/pyroscope/config.h"
#include "exporters/pyroscope/series.h"

namespace proflow::exporters::pyroscope {

class PyroscopeSender final : public exporterhelper::Sender {
 public:
  PyroscopeSender(const CreateSettings& settings, PyroscopeExporterConfig config);
  ~PyroscopeSender() override;

  Status start(Host& host) override;
  Status push(const Batch& batch, Deadline deadline) override;

 private:
  // `context`: the metadata of the batch being sent (for the `auth` extension's headers).
  Status post(const std::string& target, const std::string& content_type, const std::string& body, Deadline deadline,
              const ClientMetadata* context);

  CreateSettings settings_;
  PyroscopeExporterConfig config_;
  const auth::ClientAuthenticator* client_auth_ = nullptr;  // from config `auth`; owned by the service
  std::string base_url_;  // endpoint without a trailing '/'
  net::HttpHeaders headers_;  // auth, tenant, user headers (values never logged)
  std::unique_ptr<net::HttpClient> client_;
};

// "Basic <base64(user:password)>".
std::string basicAuthorization(const std::string& user, const std::string& password);

}  // namespace proflow::exporters::pyroscope
