#include "exporters/parca/parca_sender.h"

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include "core/auth/client_auth.h"
#include "core/net/grpc_status.h"
#include "core/net/grpc_channel.h"
#include "core/util/ascii.h"
#include "exporters/parca/write_raw.h"
#include "parca/profilestore/v1alpha1/profilestore.grpc.pb.h"

namespace proflow::exporters::parca {

struct ParcaSender::Stub {
  std::unique_ptr<store::ProfileStoreService::Stub> stub;
};

ParcaSender::ParcaSender(const CreateSettings& settings, ParcaExporterConfig config)
    : settings_(settings), config_(std::move(config)) {}

ParcaSender::~ParcaSender() = default;

Status ParcaSender::start(Host& host) {
  if (Status s = auth::findClientAuthenticator(host, config_.auth, &client_auth_); !s.isOk()) return s;
  std::string token = config_.bearer_token;
  if (!config_.bearer_token_file.empty()) {
    token = std::string(trim(net::readFileOrEmpty(config_.bearer_token_file)));
    if (token.empty()) return Status::invalid("parca: bearer_token_file '" + config_.bearer_token_file + "' is empty or unreadable");
  }
  if (!token.empty()) authorization_ = "Bearer " + token;
  net::GrpcChannelOptions options;
  options.max_send_bytes = config_.max_request_size.bytes;
  options.gzip = config_.compression == "gzip";
  std::string target;
  bool insecure = false;
  channel_ = net::makeGrpcChannel(config_.endpoint, config_.tls, options, &target, &insecure);
  stub_ = std::make_unique<Stub>();
  stub_->stub = store::ProfileStoreService::NewStub(channel_);
  settings_.logger->info("exporting to Parca at {}{}{}", target, insecure ? " (insecure)" : " (TLS)",
                         authorization_.empty() ? "" : " with a bearer token");
  return Status::ok();
}

Status ParcaSender::push(const Batch& batch, Deadline deadline) {
  store::WriteRawRequest request;
  // A batch that cannot become pprof never will: permanent.
  if (Status s = buildWriteRaw(batch.data(), config_.external_labels, &request); !s.isOk()) return s;
  // normalized stays false: addresses are as the producer sampled them; Parca relocates them by mapping.
  const size_t size = request.ByteSizeLong();
  if (size > config_.max_request_size.bytes)
    return Status::tooLarge("WriteRaw request of " + std::to_string(size) + " bytes exceeds max_request_size " +
                            config_.max_request_size.str());
  grpc::ClientContext ctx;
  if (!authorization_.empty()) ctx.AddMetadata("authorization", authorization_);
  net::prepareCall(ctx, deadline, {});
  auth::addClientMetadata(client_auth_, batch.metadata().get(), config_.headers, &ctx);
  store::WriteRawResponse response;
  grpc::Status gs = stub_->stub->WriteRaw(&ctx, request, &response);
  if (!gs.ok()) return fromGrpcStatus(gs);
  settings_.telemetry->bytesOut(size);
  return Status::ok();
}

}  // namespace proflow::exporters::parca
