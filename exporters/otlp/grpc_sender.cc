#include "exporters/otlp/grpc_sender.h"

#include <grpcpp/grpcpp.h>

#include <fstream>
#include <sstream>

#include "core/grpc_status.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"

namespace proflow::exporters::otlp {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;

struct GrpcSender::Stub {
  std::unique_ptr<collector::ProfilesService::Stub> stub;
};

std::string readPem(const std::string& path) {
  if (path.empty()) return {};
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

GrpcSender::GrpcSender(const CreateSettings& settings, OtlpExporterConfig config)
    : settings_(settings), config_(std::move(config)) {}

GrpcSender::~GrpcSender() = default;

Status GrpcSender::start(Host&) {
  std::string target = config_.endpoint;
  bool insecure = config_.tls.insecure;
  if (target.rfind("http://", 0) == 0) {
    target.erase(0, 7);
    insecure = true;
  } else if (target.rfind("https://", 0) == 0) {
    target.erase(0, 8);
    insecure = false;
  }
  std::shared_ptr<grpc::ChannelCredentials> creds;
  if (insecure) {
    creds = grpc::InsecureChannelCredentials();
  } else {
    grpc::SslCredentialsOptions opts;
    opts.pem_root_certs = readPem(config_.tls.ca_file);
    opts.pem_cert_chain = readPem(config_.tls.cert_file);
    opts.pem_private_key = readPem(config_.tls.key_file);
    creds = grpc::SslCredentials(opts);
  }
  grpc::ChannelArguments args;
  if (!config_.tls.server_name_override.empty())
    args.SetSslTargetNameOverride(config_.tls.server_name_override);
  args.SetMaxSendMessageSize(static_cast<int>(std::min<uint64_t>(config_.max_request_size.bytes, INT32_MAX)));
  args.SetMaxReceiveMessageSize(4 << 20);  // OTLP: bound response reads
  if (config_.compression == "gzip") args.SetCompressionAlgorithm(GRPC_COMPRESS_GZIP);
  channel_ = grpc::CreateCustomChannel(target, creds, args);
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
  ctx.set_deadline(std::chrono::system_clock::now() +
                   std::chrono::duration_cast<std::chrono::system_clock::duration>(deadline - std::chrono::steady_clock::now()));
  for (const auto& [k, v] : config_.headers) ctx.AddMetadata(k, v);
  ::proflow::otlp::Response response;
  grpc::Status gs = stub_->stub->Export(&ctx, batch.request(), &response);
  if (!gs.ok()) return fromGrpcStatus(gs);
  settings_.telemetry->bytesOut(size);
  if (response.has_partial_success() && response.partial_success().rejected_profiles() > 0) {
    // The peer took the rest; OTLP forbids retrying a partial success.
    const auto& p = response.partial_success();
    settings_.telemetry->record(telemetry::Event::kFailed, BatchCounts{0, static_cast<uint64_t>(p.rejected_profiles()), 0});
    settings_.logger->warn("peer rejected {} profiles: {}", p.rejected_profiles(), p.error_message());
  }
  return Status::ok();
}

}  // namespace proflow::exporters::otlp
