// One OTLP/gRPC Export call per attempt; the exporter helper queues and retries around it.
#pragma once

#include <memory>

#include <grpcpp/channel.h>

#include "core/auth/authenticator.h"
#include "core/exporterhelper/sender.h"
#include "core/component/factory.h"
#include "exporters/otlp/config.h"

namespace proflow::exporters::otlp {

class GrpcSender final : public exporterhelper::Sender {
 public:
  GrpcSender(const CreateSettings& settings, OtlpExporterConfig config);
  ~GrpcSender() override;

  Status start(Host& host) override;
  Status push(const Batch& batch, Deadline deadline) override;

 private:
  struct Stub;
  CreateSettings settings_;
  OtlpExporterConfig config_;
  const auth::ClientAuthenticator* client_auth_ = nullptr;  // from config `auth`; owned by the service
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<Stub> stub_;
};

}  // namespace proflow::exporters::otlp
