#include "exporters/otlp/config.h"

#include "core/net/grpc_channel.h"

namespace proflow::exporters::otlp {

void OtlpExporterConfig::validate(config::ValidationContext& ctx) const {
  if (endpoint.empty()) ctx.error("endpoint", "required: host:port of the OTLP/gRPC server");
  net::validateGrpcClient(ctx, endpoint, compression, headers, tls);
  helper.validate(ctx);
}

}  // namespace proflow::exporters::otlp
