// Config of the `jfr` receiver: Java Flight Recorder recordings over HTTP and from a directory.
//
//   receivers:
//     jfr:
//       endpoint: 127.0.0.1:4041          # POST /v1/jfr; "" turns HTTP off
//       attributes: { service.name: checkout }
//       directory:
//         path: /recordings               # a JVM started with -XX:StartFlightRecording:filename=/recordings/...
//         after: move                     # delete | move
//         move_to: /recordings/done
#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/config/config_reader.h"
#include "core/directory_watcher.h"
#include "core/auth/auth_config.h"
#include "core/net/server_limits.h"
#include "core/net/tls_config.h"

namespace proflow::receivers::jfr {

// The directory mode's keys (core/directory_watcher.h), with the suffix of JFR recordings.
struct DirectoryConfig : DirectoryWatchConfig {
  DirectoryConfig() { suffix = ".jfr"; }
};

struct JfrReceiverConfig {
  std::string endpoint = "127.0.0.1:4041";
  config::ByteSize max_request_body_size = config::ByteSize(256ull << 20);  // after decompression
  double max_inflate_ratio = 100;
  std::map<std::string, std::string> attributes;  // resource attributes added to every recording
  bool keep_original_payload = false;
  std::optional<DirectoryConfig> directory;
  std::optional<net::TlsServerConfig> tls;
  std::optional<auth::AuthConfig> auth;  // authenticates the listener's requests
  net::ServerLimitsConfig server_limits;  // keys at this level, see core/net/server_limits.h

  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "host:port for POST /v1/jfr; empty disables HTTP");
    v.field("tls", tls, "serve TLS with this certificate (absent = plain text)");
    v.field("auth", auth, "authenticate requests: { authenticator: <extension id> }");
    v.field("max_request_body_size", max_request_body_size, "largest recording accepted (decompressed)");
    v.field("max_inflate_ratio", max_inflate_ratio, "largest decompressed/compressed ratio accepted");
    v.field("attributes", attributes, "resource attributes added to every recording");
    v.field("keep_original_payload", keep_original_payload, "keep the JFR bytes in Profile.original_payload");
    v.field("directory", directory, "pick up finished recordings from a directory");
    server_limits.visit(v);  // max_in_flight_bytes, max_connections, read_*_timeout
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::receivers::jfr
