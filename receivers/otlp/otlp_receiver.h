// The `otlp` receiver: OTLP profiles over gRPC and HTTP into the pipelines.
#pragma once

#include <memory>

#include "core/component/factory.h"
#include "receivers/otlp/config.h"

namespace proflow::receivers::otlp {

class GrpcTransport;
class HttpTransport;

class OtlpReceiver final : public Receiver {
 public:
  OtlpReceiver(const CreateSettings& settings, OtlpReceiverConfig config, ConsumerPtr next);
  ~OtlpReceiver() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;

  // Bound ports (0 when the protocol is off); useful with port 0 in tests.
  int grpcPort() const;
  int httpPort() const;

 private:
  CreateSettings settings_;
  OtlpReceiverConfig config_;
  ConsumerPtr next_;
  std::unique_ptr<GrpcTransport> grpc_;
  std::unique_ptr<HttpTransport> http_;
};

}  // namespace proflow::receivers::otlp
