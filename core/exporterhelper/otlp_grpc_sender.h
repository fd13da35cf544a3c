// OTLP profiles over gRPC: the settings and the Sender that makes one ProfilesService/Export call per
// attempt (the exporter helper queues and retries around it). The `otlp_grpc` exporter is this sender on
// the exporter helper; the `loadbalancing` exporter runs one per backend.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "core/auth/auth_config.h"
#include "core/auth/authenticator.h"
#include "core/component/factory.h"
#include "core/config/config_reader.h"
#include "core/exporterhelper/exporter_helper_config.h"
#include "core/exporterhelper/sender.h"
#include "core/exporterhelper/utf8_guard.h"
#include "core/net/tls_config.h"

namespace grpc {
class Channel;
class ClientContext;
}

namespace proflow::exporterhelper {

struct OtlpGrpcConfig {
  std::string endpoint;               // host:port; an http:// prefix means insecure, https:// means TLS
  std::string compression = "gzip";   // gzip | none
  std::map<std::string, std::string> headers;
  net::TlsClientConfig tls;
  std::optional<auth::AuthConfig> auth;  // client credentials from an auth extension
  bool send_version_header = false;  // OTLP-Profiles-Development-Version: 1 (off until upstream settles it)
  config::ByteSize max_request_size = config::ByteSize(64ull << 20);  // larger batches are dropped and counted
  ExporterHelperConfig helper;

  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "host:port of the OTLP/gRPC server");
    v.field("compression", compression, "gzip or none");
    v.field("headers", headers, "metadata sent with every request");
    v.field("tls", tls);
    v.field("auth", auth, "send credentials from an auth extension: { authenticator: <id> }");
    v.field("send_version_header", send_version_header, "send the OTLP profiles development version header");
    v.field("max_request_size", max_request_size, "requests larger than this (uncompressed) are not sent");
    helper.visit(v);
  }
  void validate(config::ValidationContext& ctx) const;
};

class OtlpGrpcSender final : public Sender {
 public:
  OtlpGrpcSender(const CreateSettings& settings, OtlpGrpcConfig config);
  ~OtlpGrpcSender() override;

  Status start(Host& host) override;
  Status push(const Batch& batch, Deadline deadline) override;
  void cancel() override;

 private:
  struct Stub;
  CreateSettings settings_;
  OtlpGrpcConfig config_;
  Utf8Guard utf8_;
  const auth::ClientAuthenticator* client_auth_ = nullptr;  // from config `auth`; owned by the service
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<Stub> stub_;

  std::mutex calls_mu_;
  std::set<grpc::ClientContext*> calls_;  // push() calls in flight
  bool cancelled_ = false;
};

}  // namespace proflow::exporterhelper
