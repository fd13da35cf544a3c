// Config of the `folded` receiver: folded ("collapsed") stack text over HTTP.
//
//   receivers:
//     folded:
//       endpoint: 127.0.0.1:4043     # POST /v1/folded
//       attributes: { service.name: batch-job }
//       sample_type: cpu
//       sample_unit: nanoseconds
//       period: 10000000             # each counted sample is 10 ms of CPU
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/config/config_reader.h"
#include "core/auth/auth_config.h"
#include "core/net/server_limits.h"
#include "core/net/tls_config.h"

namespace proflow::receivers::folded {

struct FoldedReceiverConfig {
  std::string endpoint = "127.0.0.1:4043";
  config::ByteSize max_request_body_size = config::ByteSize(32ull << 20);  // after decompression
  double max_inflate_ratio = 100;
  std::map<std::string, std::string> attributes;  // resource attributes of every profile
  // What the counts mean, unless a request says otherwise (?sample_type=&sample_unit=&period=).
  std::string sample_type = "samples";
  std::string sample_unit = "count";
  int64_t period = 0;  // > 0: counts are samples of this many sample_unit each, values = count * period
  std::optional<net::TlsServerConfig> tls;
  std::optional<auth::AuthConfig> auth;  // authenticates the listener's requests
  net::ServerLimitsConfig server_limits;  // keys at this level, see core/net/server_limits.h

  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "host:port for POST /v1/folded");
    v.field("tls", tls, "serve TLS with this certificate (absent = plain text)");
    v.field("auth", auth, "authenticate requests: { authenticator: <extension id> }");
    v.field("max_request_body_size", max_request_body_size, "largest body accepted, after decompression");
    v.field("max_inflate_ratio", max_inflate_ratio, "largest decompressed/compressed ratio accepted");
    v.field("attributes", attributes, "resource attributes added to every profile");
    v.field("sample_type", sample_type, "sample type of the counts (cpu, wall, alloc_objects, ...)");
    v.field("sample_unit", sample_unit, "unit of the values (count, nanoseconds, bytes, ...)");
    v.field("period", period, "value of one counted sample in sample_unit; 0 = counts are the values");
    server_limits.visit(v);  // max_in_flight_bytes, max_connections, read_*_timeout
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::receivers::folded
