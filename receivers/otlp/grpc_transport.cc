#include "receivers/otlp/grpc_transport.h"

#include <boost/asio/post.hpp>
#include <grpcpp/grpcpp.h>
#include <grpcpp/support/proto_buffer_reader.h>

#include "core/grpc_status.h"
#include "core/net/tls_server.h"
#include "core/otlp_types.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "receivers/otlp/otlp_ingest.h"

namespace proflow::receivers::otlp {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;

class GrpcTransport::Service final
    : public collector::ProfilesService::WithRawCallbackMethod_Export<collector::ProfilesService::Service> {
 public:
  Service(const CreateSettings& settings, const GrpcProtocolConfig& config, ConsumerPtr next)
      : settings_(settings), config_(config), next_(std::move(next)) {}

  grpc::ServerUnaryReactor* Export(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* request,
                                   grpc::ByteBuffer* response) override {
    auto* reactor = ctx->DefaultReactor();
    if (in_flight_.fetch_add(1) >= config_.max_concurrent_requests) {
      in_flight_.fetch_sub(1);
      settings_.telemetry->record(telemetry::Event::kReceived, {});
      settings_.telemetry->record(telemetry::Event::kRefused, {});
      reactor->Finish(toGrpcStatus(Status::exhausted("too many concurrent requests; retry later")
                                       .withRetryAfter(std::chrono::seconds(1))));
      return reactor;
    }
    // The ByteBuffer is owned by gRPC until Finish(): the worker reads it before finishing.
    boost::asio::post(settings_.runtime->workers(), [this, reactor, request, response] {
      reactor->Finish(handle(*request, response));
      in_flight_.fetch_sub(1);
    });
    return reactor;
  }

 private:
  grpc::Status handle(const grpc::ByteBuffer& raw, grpc::ByteBuffer* out) {
    settings_.telemetry->bytesIn(raw.Length());
    // Parsed onto an arena: many small messages, allocated and freed in blocks.
    Batch batch = Batch::withArena();
    {
      grpc::ByteBuffer copy(raw);  // shares slices; the reader needs a mutable buffer
      grpc::ProtoBufferReader reader(&copy);
      if (!batch.request().ParseFromZeroCopyStream(&reader)) {
        settings_.telemetry->record(telemetry::Event::kReceived, {});
        settings_.telemetry->record(telemetry::Event::kRefused, {});
        return toGrpcStatus(Status::invalid("request is not a valid ExportProfilesServiceRequest protobuf"));
      }
    }
    IngestResult r = ingest(std::move(batch), *next_, *settings_.telemetry);
    if (!r.status.isOk()) {
      if (!r.status.retryable()) settings_.logger->debug("refused request: {}", r.status.toString());
      return toGrpcStatus(r.status);
    }
    bool own_buffer = false;
    grpc::Status s = grpc::GenericSerialize<grpc::ProtoBufferWriter, ::proflow::otlp::Response>(r.response, out,
                                                                                                 &own_buffer);
    return s;
  }

  const CreateSettings& settings_;
  const GrpcProtocolConfig& config_;
  ConsumerPtr next_;
  std::atomic<int> in_flight_{0};
};

GrpcTransport::GrpcTransport(const CreateSettings& settings, GrpcProtocolConfig config, ConsumerPtr next)
    : settings_(settings), config_(std::move(config)), next_(std::move(next)) {}

GrpcTransport::~GrpcTransport() { shutdown(std::chrono::steady_clock::now()); }

Status GrpcTransport::start() {
  service_ = std::make_unique<Service>(settings_, config_, next_);
  std::shared_ptr<grpc::ServerCredentials> credentials = grpc::InsecureServerCredentials();
  if (config_.tls) {
    if (Status s = net::makeGrpcServerCredentials(*config_.tls, &credentials); !s.isOk())
      return Status(s.code(), "OTLP/gRPC: " + s.message());
  }
  grpc::ServerBuilder builder;
  builder.AddListeningPort(config_.endpoint, credentials, &port_);
  builder.SetMaxReceiveMessageSize(static_cast<int>(config_.max_recv_msg_size.bytes));
  builder.RegisterService(service_.get());
  server_ = builder.BuildAndStart();
  if (!server_ || port_ == 0)
    return Status::unavailable("cannot listen for OTLP/gRPC on " + config_.endpoint +
                               " (address in use or not local?)");
  settings_.logger->info("OTLP/gRPC listening on {} (port {})", config_.endpoint, port_);
  return Status::ok();
}

void GrpcTransport::shutdown(Deadline deadline) {
  if (!server_) return;
  // Stops accepting new calls and waits for in-flight ones (they finish on the worker pool).
  server_->Shutdown(std::chrono::system_clock::now() +
                    std::chrono::duration_cast<std::chrono::system_clock::duration>(
                        std::max(deadline - std::chrono::steady_clock::now(), std::chrono::steady_clock::duration(0))));
  server_->Wait();
  server_.reset();
}

}  // namespace proflow::receivers::otlp
