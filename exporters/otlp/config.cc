#include "exporters/otlp/config.h"

namespace proflow::exporters::otlp {

void OtlpExporterConfig::validate(config::ValidationContext& ctx) const {
  if (endpoint.empty()) ctx.error("endpoint", "required: host:port of the OTLP/gRPC server");
  if (compression != "gzip" && compression != "none")
    ctx.error("compression", "unknown compression '" + compression + "'; valid: gzip, none");
  for (const auto& [k, v] : headers)
    for (char c : k)
      if (std::isupper(static_cast<unsigned char>(c)) || c == ' ') {
        ctx.error("headers", "gRPC metadata key '" + k + "' must be lowercase without spaces");
        break;
      }
  auto tls_ctx = ctx.nested("tls");
  tls.validate(tls_ctx);
  helper.validate(ctx);
}

}  // namespace proflow::exporters::otlp
