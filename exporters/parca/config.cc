#include "exporters/parca/config.h"

#include <filesystem>

#include "core/net/grpc_channel.h"
#include "core/util/prometheus_labels.h"

namespace proflow::exporters::parca {

void ParcaExporterConfig::validate(config::ValidationContext& ctx) const {
  if (endpoint.empty()) ctx.error("endpoint", "required: host:port of the Parca server (gRPC, default port 7070)");
  if (!bearer_token.empty() && !bearer_token_file.empty())
    ctx.error("bearer_token", "set bearer_token or bearer_token_file, not both");
  std::error_code ec;
  if (!bearer_token_file.empty() && !std::filesystem::is_regular_file(bearer_token_file, ec))
    ctx.error("bearer_token_file", "file '" + bearer_token_file + "' does not exist or is not a regular file");
  for (const auto& [k, v] : external_labels) {
    if (!isValidLabelName(k) || k.rfind("__", 0) == 0)
      ctx.error("external_labels", "label name '" + k + "' must match [a-zA-Z_][a-zA-Z0-9_]* and not start with __");
  }
  net::validateGrpcClient(ctx, endpoint, compression, headers, tls);
  helper.validate(ctx);
}

}  // namespace proflow::exporters::parca
