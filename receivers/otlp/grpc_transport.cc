#include "receivers/otlp/grpc_transport.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <cctype>
#include <grpcpp/grpcpp.h>
#include <grpcpp/support/proto_buffer_reader.h>

#include "core/auth/auth_config.h"
#include "core/grpc_status.h"
#include "core/net/tls_server.h"
#include "core/otlp_profiles_version.h"
#include "core/otlp_types.h"
#include "core/telemetry/log_throttle.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "receivers/otlp/otlp_ingest.h"

namespace proflow::receivers::otlp {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;

class GrpcTransport::Service final
    : public collector::ProfilesService::WithRawCallbackMethod_Export<collector::ProfilesService::Service> {
 public:
  Service(const CreateSettings& settings, const GrpcProtocolConfig& config, ConsumerPtr next,
          const auth::ServerAuthenticator* authenticator)
      : settings_(settings), config_(config), next_(std::move(next)), authenticator_(authenticator) {}

  grpc::ServerUnaryReactor* Export(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* request,
                                   grpc::ByteBuffer* response) override {
    auto* reactor = ctx->DefaultReactor();
    // Metadata only: credentials and the schema version are checked before the request is parsed.
    if (Status s = checkMetadata(*ctx); !s.isOk()) {
      settings_.telemetry->record(telemetry::Event::kReceived, {});
      settings_.telemetry->record(telemetry::Event::kRefused, {});
      reactor->Finish(toGrpcStatus(s));
      return reactor;
    }
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
  Status checkMetadata(const grpc::CallbackServerContext& ctx) {
    const auto& md = ctx.client_metadata();
    if (authenticator_) {
      Status s = authenticator_->authenticate([&md](std::string_view name) -> std::optional<std::string_view> {
        // gRPC metadata keys are lower case; authenticators name headers as HTTP spells them.
        std::string key(name);
        std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
        auto it = md.find(grpc::string_ref(key));
        if (it == md.end()) return std::nullopt;
        return std::string_view(it->second.data(), it->second.size());
      });
      if (!s.isOk()) {
        rejected(s.code() == StatusCode::kUnauthenticated ? "unauthenticated" : "auth_error").add();
        return s;
      }
    }
    std::vector<std::string_view> versions;
    const grpc::string_ref key(kProfilesVersionMetadata.data(), kProfilesVersionMetadata.size());
    for (auto [it, end] = md.equal_range(key); it != end; ++it) versions.emplace_back(it->second.data(), it->second.size());
    Status s = checkProfilesVersion(versions);
    if (!s.isOk()) rejected("unsupported_version").add();
    return s;
  }

  telemetry::Counter& rejected(const char* reason) {
    auto labels = settings_.telemetry->labels();
    labels.emplace_back("reason", reason);
    return settings_.telemetry->registry().counter(settings_.telemetry->prefix() + "grpc_rejected_requests_total",
                                                   "gRPC requests refused before decoding, by reason", labels);
  }

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
      if (!r.status.retryable())
        log_throttle_.log(*settings_.logger, spdlog::level::debug, "refused", "refused request: " + r.status.toString());
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
  const auth::ServerAuthenticator* authenticator_;
  telemetry::LogThrottle log_throttle_;  // a sender can trigger the refusal line on every request
  std::atomic<int> in_flight_{0};
};

GrpcTransport::GrpcTransport(const CreateSettings& settings, GrpcProtocolConfig config, ConsumerPtr next)
    : settings_(settings), config_(std::move(config)), next_(std::move(next)) {}

GrpcTransport::~GrpcTransport() { shutdown(std::chrono::steady_clock::now()); }

Status GrpcTransport::start(Host& host) {
  const auth::ServerAuthenticator* authenticator = nullptr;
  if (Status s = auth::findServerAuthenticator(host, config_.auth, &authenticator); !s.isOk())
    return Status(s.code(), "OTLP/gRPC: " + s.message());
  service_ = std::make_unique<Service>(settings_, config_, next_, authenticator);
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
