// OTLP/gRPC: /opentelemetry.proto.collector.profiles.v1development.ProfilesService/Export.
// Uses gRPC's callback API with raw ByteBuffers so the request is parsed once, on proflow's worker
// pool (not on gRPC's threads), straight into the batch the pipeline will own. A call is admitted on
// its metadata (credentials, schema version, concurrency) before its message is read. With an
// authenticator, a call to any other method is answered UNAUTHENTICATED before UNIMPLEMENTED.
#pragma once

#include <atomic>
#include <memory>

#include <grpcpp/server.h>

#include "core/component/consumer.h"
#include "core/component/factory.h"
#include "receivers/otlp/config.h"

namespace proflow::auth {
class UnknownMethods;
}

namespace proflow::receivers::otlp {

class GrpcTransport {
 public:
  GrpcTransport(const CreateSettings& settings, GrpcProtocolConfig config, ConsumerPtr next,
                const net::ServerLimitsConfig& limits, std::shared_ptr<net::InFlightBudget> budget);
  ~GrpcTransport();

  Status start(Host& host);
  void shutdown(Deadline deadline);
  int port() const { return port_; }

 private:
  class Service;
  CreateSettings settings_;
  GrpcProtocolConfig config_;
  ConsumerPtr next_;
  net::ServerLimitsConfig limits_;
  std::shared_ptr<net::InFlightBudget> budget_;
  std::unique_ptr<Service> service_;
  std::unique_ptr<auth::UnknownMethods> unknown_methods_;  // with an authenticator only
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
};

}  // namespace proflow::receivers::otlp
