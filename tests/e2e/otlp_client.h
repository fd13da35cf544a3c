// A plain OTLP/gRPC client for end-to-end tests (generated stub, nothing from proflow's exporters).
#pragma once

#include <grpcpp/grpcpp.h>

#include <string>
#include <utility>
#include <vector>

#include "core/model/otlp_types.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"

namespace proflow::testing {

inline grpc::Status exportTo(int port, const otlp::Request& request,
                             std::chrono::seconds timeout = std::chrono::seconds(10),
                             grpc_compression_algorithm compression = GRPC_COMPRESS_NONE,
                             const std::vector<std::pair<std::string, std::string>>& metadata = {}) {
  namespace collector = ::opentelemetry::proto::collector::profiles::v1development;
  auto ch = grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials());
  auto stub = collector::ProfilesService::NewStub(ch);
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + timeout);
  ctx.set_compression_algorithm(compression);
  for (const auto& [key, value] : metadata) ctx.AddMetadata(key, value);
  otlp::Response response;
  return stub->Export(&ctx, request, &response);
}

}  // namespace proflow::testing
