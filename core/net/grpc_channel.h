// The client channel every gRPC exporter opens: endpoint scheme (http:// = plain, https:// = TLS),
// the `tls` block, send/receive caps and gzip. Every `tls` field is honoured: `insecure` (plain
// text), `ca_file` (roots; the system's when empty), `cert_file`/`key_file` (client certificate),
// `server_name_override` (SNI and the name verified) and `insecure_skip_verify` (TLS without
// checking the server's certificate chain or name).
#pragma once

#include <grpcpp/channel.h>

#include <grpcpp/client_context.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "core/config/config_reader.h"
#include "core/net/tls_config.h"

namespace proflow::net {

struct GrpcChannelOptions {
  uint64_t max_send_bytes = 64u << 20;
  int max_receive_bytes = 4 << 20;  // responses are small; bound what a peer can make us read
  bool gzip = true;
};

// `target_out` / `insecure_out` (optional) tell what was dialled, for the start-up log line.
std::shared_ptr<grpc::Channel> makeGrpcChannel(const std::string& endpoint, const TlsClientConfig& tls,
                                               const GrpcChannelOptions& options, std::string* target_out = nullptr,
                                               bool* insecure_out = nullptr);

// What a gRPC exporter's config says about its client: `compression` (gzip | none), metadata keys
// (gRPC wants them lowercase, without spaces) and the `tls` block against the `endpoint`: a setting
// the channel would not use (TLS options on a plain-text channel, `insecure: true` with https://) is
// an error, never silently ignored.
void validateGrpcClient(config::ValidationContext& ctx, const std::string& endpoint, const std::string& compression,
                        const std::map<std::string, std::string>& headers, const TlsClientConfig& tls);

// One call's deadline (from the exporter helper's steady-clock deadline) and metadata.
void prepareCall(grpc::ClientContext& ctx, std::chrono::steady_clock::time_point deadline,
                 const std::map<std::string, std::string>& headers);

// A whole file (TLS material); "" when the path is empty or unreadable.
std::string readFileOrEmpty(const std::string& path);

}  // namespace proflow::net
