// Config of the `symbolstore` extension: a debug-file store on disk that CI uploads to (HTTP PUT or
// Parca's gRPC DebuginfoService) and that serves the debuginfod protocol.
//
//   extensions:
//     symbolstore:
//       endpoint: 0.0.0.0:8002          # HTTP: PUT /debuginfo/<id>, GET /buildid/<id>/debuginfo
//       grpc_endpoint: 0.0.0.0:8003     # parca.debuginfo.v1alpha1.DebuginfoService ("" = off)
//       directory: /var/lib/proflow/symbols
//       max_upload_size: 1GiB
//       quota_bytes: 20GiB              # least recently used files are evicted beyond it
//       auth: { authenticator: bearertokenauth/ci }   # uploads and downloads
//       upstream_debuginfod: [https://debuginfod.debian.net]
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/auth/auth_config.h"
#include "core/config/config_reader.h"
#include "core/net/tls_config.h"

namespace proflow::extensions::symbolstore {

struct SymbolStoreConfig {
  std::string endpoint = "127.0.0.1:8002";
  std::string grpc_endpoint;
  std::string directory;
  config::ByteSize max_upload_size = config::ByteSize(1ull << 30);
  config::ByteSize quota_bytes = config::ByteSize(10ull << 30);
  config::ByteSize max_in_flight_bytes = 0;  // 0 = 2 x max_upload_size
  std::optional<net::TlsServerConfig> tls;
  std::optional<auth::AuthConfig> auth;
  bool auth_downloads = true;
  std::vector<std::string> upstream_debuginfod;
  config::Duration upstream_timeout = std::chrono::seconds(30);
  config::Duration upstream_miss_ttl = std::chrono::minutes(5);
  int upstream_max_concurrent = 4;

  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "host:port of the HTTP API (uploads and the debuginfod protocol)");
    v.field("grpc_endpoint", grpc_endpoint, "host:port of the Parca-compatible gRPC upload API; \"\" = off");
    v.field("directory", directory, "where files are stored, one folder per build id (created if missing)");
    v.field("max_upload_size", max_upload_size, "largest file accepted, e.g. 1GiB; larger uploads get 413");
    v.field("quota_bytes", quota_bytes, "bytes the store may hold; least recently used files are evicted");
    v.field("max_in_flight_bytes", max_in_flight_bytes,
            "memory HTTP uploads and downloads may hold at once (429 beyond); 0 = 2 x max_upload_size");
    v.field("tls", tls, "serve HTTP and gRPC over TLS with this certificate (absent = plain text)");
    v.field("auth", auth, "authenticate uploads and downloads: { authenticator: <extension id> }");
    v.field("auth_downloads", auth_downloads,
            "with auth, downloads need credentials too (default); false opens debuginfod reads to anyone who reaches it");
    v.field("upstream_debuginfod", upstream_debuginfod,
            "debuginfod servers asked on a miss; what they return is checked and cached in the store");
    v.field("upstream_timeout", upstream_timeout, "deadline of one upstream download");
    v.field("upstream_miss_ttl", upstream_miss_ttl, "how long an id no upstream server had is not asked for again");
    v.field("upstream_max_concurrent", upstream_max_concurrent,
            "upstream downloads at once (they hold worker threads); more lookups answer 404 without asking");
  }
  void validate(config::ValidationContext& ctx) const;
  uint64_t inFlightLimit() const { return max_in_flight_bytes.bytes ? max_in_flight_bytes.bytes : 2 * max_upload_size.bytes; }
};

}  // namespace proflow::extensions::symbolstore
