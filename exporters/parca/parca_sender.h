// One WriteRaw call per delivery attempt; the exporter helper queues and retries around it. gRPC
// errors map as for OTLP (UNAVAILABLE, DEADLINE_EXCEEDED... retryable; INVALID_ARGUMENT such as
// Parca's "missing __name__ label" drops the batch, counted and logged with the server's message).
#pragma once

#include <memory>

#include <grpcpp/channel.h>

#include "core/auth/authenticator.h"
#include "core/exporterhelper/sender.h"
#include "core/component/factory.h"
#include "exporters/parca/config.h"

namespace proflow::exporters::parca {

class ParcaSender final : public exporterhelper::Sender {
 public:
  ParcaSender(const CreateSettings& settings, ParcaExporterConfig config);
  ~ParcaSender() override;

  Status start(Host& host) override;
  Status push(const Batch& batch, Deadline deadline) override;

 private:
  struct Stub;
  CreateSettings settings_;
  ParcaExporterConfig config_;
  const auth::ClientAuthenticator* client_auth_ = nullptr;  // from config `auth`; owned by the service
  std::string authorization_;  // "Bearer ..." or empty; never logged
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<Stub> stub_;
};

}  // namespace proflow::exporters::parca
