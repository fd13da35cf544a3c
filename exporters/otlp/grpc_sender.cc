#include "exporters/otlp/grpc_sender.h"

#include <grpcpp/grpcpp.h>

#include "core/auth/client_auth.h"
#include "core/grpc_status.h"
#include "core/otlp_profiles_version.h"
#include "core/net/grpc_channel.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"

namespace proflow::exporters::otlp {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;

struct GrpcSender::Stub {
  std::unique_ptr<collector::ProfilesService::Stub> stub;
};

GrpcSender::GrpcSender(const CreateSettings& settings, OtlpExporterConfig config)
    : settings_(settings), config_(std::move(config)) {}

GrpcSender::~GrpcSender() = default;

Status GrpcSender::start(Host& host) {
  if (Status s = auth::findClientAuthenticator(host, config_.auth, &client_auth_); !s.isOk()) return s;
  net::GrpcChannelOptions options;
  options.max_send_bytes = config_.max_request_size.bytes;
  options.gzip = config_.compression == "gzip";
  std::string target;
  bool insecure = false;
  channel_ = net::makeGrpcChannel(config_.endpoint, config_.tls, options, &target, &insecure);
  stub_ = std::make_unique<Stub>();
  stub_->stub = collector::ProfilesService::NewStub(channel_);
  settings_.logger->info("exporting OTLP/gRPC to {}{}", target, insecure ? " (insecure)" : " (TLS)");
  return Status::ok();
}

Status GrpcSender::push(const Batch& batch, Deadline deadline) {
  const size_t size = batch.byteSize();
  if (size > config_.max_request_size.bytes)
    return Status::tooLarge("batch of " + std::to_string(size) + " bytes exceeds max_request_size " +
                            config_.max_request_size.str());
  grpc::ClientContext ctx;
  net::prepareCall(ctx, deadline, config_.headers);
  auth::addClientMetadata(client_auth_, &ctx);
  if (config_.send_version_header)
    ctx.AddMetadata(std::string(kProfilesVersionMetadata), std::string(kProfilesVersionText));
  ::proflow::otlp::Response response;
  grpc::Status gs = stub_->stub->Export(&ctx, batch.request(), &response);
  if (!gs.ok()) return fromGrpcStatus(gs);
  settings_.telemetry->bytesOut(size);
  if (response.has_partial_success() && response.partial_success().rejected_profiles() > 0) {
    // The peer took the rest; OTLP forbids retrying a partial success.
    const auto& p = response.partial_success();
    settings_.telemetry->recordItems(telemetry::Event::kFailed, static_cast<uint64_t>(p.rejected_profiles()), 0);
    settings_.logger->warn("peer rejected {} profiles: {}", p.rejected_profiles(), p.error_message());
  }
  return Status::ok();
}

}  // namespace proflow::exporters::otlp
