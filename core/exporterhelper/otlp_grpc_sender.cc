#include "core/exporterhelper/otlp_grpc_sender.h"

#include <future>

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/support/proto_buffer_reader.h>

#include "core/auth/client_auth.h"
#include "core/flat/flat_encode.h"
#include "core/net/grpc_status.h"
#include "core/model/otlp_profiles_version.h"
#include "core/model/otlp_types.h"
#include "core/net/grpc_channel.h"

namespace proflow::exporterhelper {
namespace {

constexpr const char* kExportMethod = "/opentelemetry.proto.collector.profiles.v1development.ProfilesService/Export";

// The encoded request as a message gRPC sends without copying it (the slice owns the string).
grpc::ByteBuffer messageOf(std::string wire) {
  auto* owned = new std::string(std::move(wire));
  grpc::Slice slice(owned->data(), owned->size(), [](void* p) { delete static_cast<std::string*>(p); }, owned);
  return grpc::ByteBuffer(&slice, 1);
}

}  // namespace

void OtlpGrpcConfig::validate(config::ValidationContext& ctx) const {
  if (endpoint.empty()) ctx.error("endpoint", "required: host:port of the OTLP/gRPC server");
  net::validateGrpcClient(ctx, endpoint, compression, headers, tls);
  helper.validate(ctx);
}

// The Export call made with gRPC's generic API: the request goes out as the bytes the flat batch
// encodes to, with no protobuf request built in between.
struct OtlpGrpcSender::Stub {
  std::unique_ptr<grpc::GenericStub> stub;
};

OtlpGrpcSender::OtlpGrpcSender(const CreateSettings& settings, OtlpGrpcConfig config)
    : settings_(settings), config_(std::move(config)), utf8_(settings) {}

OtlpGrpcSender::~OtlpGrpcSender() = default;

Status OtlpGrpcSender::start(Host& host) {
  if (Status s = auth::findClientAuthenticator(host, config_.auth, &client_auth_); !s.isOk()) return s;
  net::GrpcChannelOptions options;
  options.max_send_bytes = config_.max_request_size.bytes;
  options.gzip = config_.compression == "gzip";
  std::string target;
  bool insecure = false;
  channel_ = net::makeGrpcChannel(config_.endpoint, config_.tls, options, &target, &insecure);
  stub_ = std::make_unique<Stub>();
  stub_->stub = std::make_unique<grpc::GenericStub>(channel_);
  settings_.logger->info("exporting OTLP/gRPC to {}{}", target, insecure ? " (insecure)" : " (TLS)");
  return Status::ok();
}

void OtlpGrpcSender::cancel() {
  std::lock_guard lock(calls_mu_);
  cancelled_ = true;
  for (grpc::ClientContext* ctx : calls_) ctx->TryCancel();  // the call ends CANCELLED (retryable)
}

Status OtlpGrpcSender::push(const Batch& batch, Deadline deadline) {
  flat::Batch repaired;
  std::string wire = flat::encode(utf8_.sendable(batch.data(), &repaired));
  const size_t size = wire.size();
  if (size > config_.max_request_size.bytes)
    return Status::tooLarge("batch of " + std::to_string(size) + " bytes exceeds max_request_size " +
                            config_.max_request_size.str());
  grpc::ClientContext ctx;
  net::prepareCall(ctx, deadline, {});
  auth::addClientMetadata(client_auth_, batch.metadata().get(), config_.headers, &ctx);
  if (config_.send_version_header)
    ctx.AddMetadata(std::string(kProfilesVersionMetadata), std::string(kProfilesVersionText));
  const grpc::ByteBuffer message = messageOf(std::move(wire));
  grpc::ByteBuffer answer;
  std::promise<grpc::Status> done;
  {
    std::lock_guard lock(calls_mu_);
    if (cancelled_) return Status::unavailable("exporter is shutting down");
    calls_.insert(&ctx);
  }
  stub_->stub->UnaryCall(&ctx, kExportMethod, grpc::StubOptions(), &message, &answer,
                         [&done](grpc::Status s) { done.set_value(std::move(s)); });
  grpc::Status gs = done.get_future().get();
  {
    std::lock_guard lock(calls_mu_);
    calls_.erase(&ctx);
  }
  if (!gs.ok()) return fromGrpcStatus(gs);
  ::proflow::otlp::Response response;
  // An answer that does not parse is a success without partial-success details.
  grpc::ProtoBufferReader reader(&answer);
  (void)response.ParseFromZeroCopyStream(&reader);
  settings_.telemetry->bytesOut(size);
  if (response.has_partial_success() && response.partial_success().rejected_profiles() > 0) {
    // The peer took the rest; OTLP forbids retrying a partial success.
    const auto& p = response.partial_success();
    settings_.telemetry->recordItems(telemetry::Event::kFailed, static_cast<uint64_t>(p.rejected_profiles()), 0);
    settings_.logger->warn("peer rejected {} profiles: {}", p.rejected_profiles(), p.error_message());
  }
  return Status::ok();
}

}  // namespace proflow::exporterhelper
