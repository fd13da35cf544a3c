#include "receivers/otlp/grpc_transport.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <cctype>
#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/codegen/proto_utils.h>
#include <grpcpp/impl/codegen/server_callback_handlers.h>
#include <grpcpp/impl/service_type.h>
#include <grpcpp/resource_quota.h>
#include <grpcpp/support/proto_buffer_reader.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/auth/auth_config.h"
#include "core/auth/grpc_auth.h"
#include "core/auth/keyed_digest.h"
#include "core/compression/compression.h"
#include "core/net/call_slots.h"
#include "core/net/grpc_call_watchdog.h"
#include "core/net/grpc_status.h"
#include "core/net/grpc_server.h"
#include "core/net/peer_address.h"
#include "core/net/tls_server.h"
#include "core/model/otlp_profiles_version.h"
#include "core/model/otlp_types.h"
#include "core/telemetry/log_throttle.h"
#include "receivers/otlp/otlp_ingest.h"

namespace proflow::receivers::otlp {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;

namespace {

// gRPC's own decompression is off (see start()), so a message arrives as sent and a compressed one
// is recognised by its first bytes: gzip and zlib magic cannot start a valid
// ExportProfilesServiceRequest (0x1f is wire type 7; 0x78 would be field 15), nor can zstd's
// (28 b5 2f fd would be an unknown field 5). The call's grpc-encoding cannot tell: gRPC 1.51 drops
// the header when it names a codec it does not know, as it does zstd (what the Collector's
// otlp_grpc exporter offers besides gzip).
std::optional<compression::Codec> messageCodec(std::string_view head) {
  if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b)
    return compression::Codec::kGzip;
  if (head.size() >= 2) {
    const auto b0 = static_cast<unsigned char>(head[0]), b1 = static_cast<unsigned char>(head[1]);
    if ((b0 & 0x0f) == 8 && (b0 >> 4) <= 7 && ((b0 << 8) | b1) % 31 == 0) return compression::Codec::kZlib;
  }
  if (compression::detectCodec(head) == compression::Codec::kZstd) return compression::Codec::kZstd;
  return std::nullopt;
}

std::string flatten(const grpc::ByteBuffer& raw) {
  std::vector<grpc::Slice> slices;
  std::string out;
  if (!raw.Dump(&slices).ok()) return out;
  out.reserve(raw.Length());
  for (const auto& slice : slices) out.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
  return out;
}

// The message's bytes in one piece: its only slice when it has one (valid while `raw` lives), else
// copied into `storage`.
std::string_view contiguous(const grpc::ByteBuffer& raw, std::string* storage) {
  std::vector<grpc::Slice> slices;
  if (!raw.Dump(&slices).ok()) return {};
  if (slices.size() == 1) return {reinterpret_cast<const char*>(slices[0].begin()), slices[0].size()};
  *storage = flatten(raw);
  return *storage;
}

std::string head(const grpc::ByteBuffer& raw) {
  std::vector<grpc::Slice> slices;
  std::string out;
  if (!raw.Dump(&slices).ok()) return out;
  for (const auto& slice : slices) {
    out.append(reinterpret_cast<const char*>(slice.begin()), std::min<size_t>(slice.size(), 4 - out.size()));
    if (out.size() == 4) break;
  }
  return out;
}

}  // namespace

// Export, served as a client stream of one message. gRPC reads a unary request whole (up to
// max_recv_msg_size) before its handler runs, so credentials checked there come after the daemon
// has buffered whatever an anonymous client sent. A stream's messages are read only when the handler
// asks, so the call is admitted on its initial metadata (credentials, schema version, concurrency)
// first, and a refused one is answered with only the HTTP/2 flow-control window of its message
// received. On the wire a unary call and a one-message client stream are the same; gRPC's own
// MarkMethodStreamed serves unary methods through a stream the same way.
class GrpcTransport::Service final : public grpc::Service {
 public:
  // proflow_receiver_grpc_rejected_requests_total{reason}: calls refused before any message was read.
  void countRejected(const char* reason) { rejected(reason).add(); }

  static constexpr const char* kExportMethod =
      "/opentelemetry.proto.collector.profiles.v1development.ProfilesService/Export";

  Service(const CreateSettings& settings, const GrpcProtocolConfig& config, ConsumerPtr next,
          const auth::ServerAuthenticator* authenticator, std::shared_ptr<net::InFlightBudget> budget)
      : settings_(settings),
        config_(config),
        next_(std::move(next)),
        authenticator_(authenticator),
        budget_(std::move(budget)),
        slots_(net::CallSlots::make({config.max_concurrent_requests, config.perConnectionLimit(),
                                     config.perClientLimit()})) {
    AddMethod(new grpc::internal::RpcServiceMethod(kExportMethod, grpc::internal::RpcMethod::CLIENT_STREAMING,
                                                   nullptr));
    MarkMethodRawCallback(0, new grpc::internal::CallbackClientStreamingHandler<grpc::ByteBuffer, grpc::ByteBuffer>(
                                 [this](grpc::CallbackServerContext* ctx, grpc::ByteBuffer* response) {
                                   return new ExportCall(*this, ctx, response);
                                 }));
  }

 private:
  // One Export call: admitted on its metadata, then its one message is read, then decoded on the
  // worker pool. Deletes itself when gRPC is done with it. While it holds a concurrency slot, a
  // watchdog bounds the two waits the client controls: for its message and for its answer to be
  // taken; past either the call is cancelled and the slot freed for others.
  class ExportCall final : public grpc::ServerReadReactor<grpc::ByteBuffer> {
   public:
    ExportCall(Service& service, grpc::CallbackServerContext* ctx, grpc::ByteBuffer* response)
        : service_(service), response_(response), watchdog_(service.settings_.runtime->io(), ctx) {
      if (service_.config_.include_metadata) {
        auto kept = std::make_shared<ClientMetadata>();
        for (const auto& [key, value] : ctx->client_metadata())
          kept->add(std::string_view(key.data(), key.size()), std::string(value.data(), value.size()));
        metadata_ = std::move(kept);
      }
      // The credentials may cost a password hash: it runs on the authenticator's thread and the call
      // goes on from there (a reactor's operations may be started from any thread).
      auth::authenticateCall(service_.authenticator_, *ctx, [this, ctx](Status s) {
        if (!s.isOk()) service_.countRejected(auth::authRefusalReason(s));
        if (s.isOk()) s = service_.admit(*ctx, &slot_);
        if (!s.isOk()) return Finish(service_.refused(s));
        watchdog_.arm(service_.config_.read_message_timeout.value, onStall("read"));
        StartRead(&request_);
      });
    }

    void OnReadDone(bool ok) override {
      watchdog_.disarm();
      // No message: the client half-closed without one, or the read failed (too large, cancelled),
      // in which case gRPC's own status wins over this one.
      if (!ok) return finish(service_.refused(Status::invalid("Export call carried no request message")));
      // Held until the answer: the message, its inflated form and the parsed request count here.
      net::InFlightLeasePtr lease;
      if (Status s = service_.budget_->acquire(request_.Length(), &lease, "request message"); !s.isOk())
        return finish(service_.refused(s));
      boost::asio::post(service_.settings_.runtime->workers(), [this, lease = std::move(lease)] {
        finish(service_.handle(request_, response_, *lease, metadata_));
      });
    }

    void OnDone() override {
      watchdog_.done();
      delete this;  // releases the slot
    }

   private:
    void finish(grpc::Status status) {
      watchdog_.arm(service_.config_.write_response_timeout.value, onStall("write"));
      Finish(std::move(status));
    }

    // What the watchdog does after cancelling a stalled call: frees its slot at once (the call
    // itself may linger until its connection closes) and counts it.
    std::function<void()> onStall(const char* phase) {
      return [slot = slot_, &service = service_, phase] {
        if (slot) slot->release();
        service.stalled(phase).add();
      };
    }

    Service& service_;
    grpc::ByteBuffer* response_;
    grpc::ByteBuffer request_;
    std::shared_ptr<net::CallSlots::Slot> slot_;  // one of max_concurrent_requests, once admitted
    ClientMetadataPtr metadata_;  // include_metadata: the call's client metadata
    net::GrpcCallWatchdog watchdog_;
  };

  // What can refuse an authenticated call before its message is read; on success `slot` holds one
  // of max_concurrent_requests, within the caller's connection and client shares.
  Status admit(const grpc::CallbackServerContext& ctx, std::shared_ptr<net::CallSlots::Slot>* slot) {
    if (Status s = checkVersion(ctx); !s.isOk()) return s;
    std::unique_ptr<net::CallSlots::Slot> held;
    if (Status s = slots_->acquire(ctx.peer(), clientOf(ctx), &held); !s.isOk()) return s;
    *slot = std::move(held);
    return Status::ok();
  }

  // Who the caller is, for its share of the slots: the credential it authenticated with (any number
  // of connections with one credential count together), else its address. Only a keyed digest of
  // the credential is kept.
  std::string clientOf(const grpc::CallbackServerContext& ctx) const {
    if (!authenticator_) return net::clientGroup(ctx.peer());
    const auto& md = ctx.client_metadata();
    auto it = md.find("authorization");
    if (it == md.end()) return "anonymous";
    return "credential:" + credential_digest_.hex(std::string_view(it->second.data(), it->second.size()));
  }

  telemetry::Counter& stalled(const char* phase) {
    auto labels = settings_.telemetry->labels();
    labels.emplace_back("phase", phase);
    return settings_.telemetry->registry().counter(settings_.telemetry->prefix() + "grpc_stalled_calls_total",
                                                   "gRPC calls cancelled because the client stalled, by phase", labels);
  }

  Status checkVersion(const grpc::CallbackServerContext& ctx) {
    const auto& md = ctx.client_metadata();
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

  grpc::Status refused(const Status& s) {
    settings_.telemetry->record(telemetry::Event::kReceived, {});
    settings_.telemetry->record(telemetry::Event::kRefused, {});
    return toGrpcStatus(s);
  }

  // Inflates a compressed message within max_recv_msg_size and the ratio cap, stopping as soon as
  // either is passed, and moves the lease to what the parsed request will hold.
  Status inflate(const grpc::ByteBuffer& raw, compression::Codec codec, net::InFlightLease& lease,
                 std::string* out) {
    compression::Limits limits;
    limits.max_output_bytes = config_.max_recv_msg_size.bytes;
    limits.max_inflate_ratio = config_.max_inflate_ratio;
    if (Status s = compression::decompress(codec, flatten(raw), *out, limits); !s.isOk())
      return Status(s.code(), "compressed request message: " + s.message() + " (max_recv_msg_size " +
                                  config_.max_recv_msg_size.str() + ")");
    return lease.resize(raw.Length() + out->size(), "decompressed request message");
  }

  grpc::Status handle(const grpc::ByteBuffer& raw, grpc::ByteBuffer* out, net::InFlightLease& lease,
                      ClientMetadataPtr metadata) {
    settings_.telemetry->bytesIn(raw.Length());
    // Decoded straight from the message's bytes into a flat batch (no protobuf request).
    std::string storage;
    std::string_view wire;
    if (auto codec = messageCodec(head(raw))) {
      if (Status s = inflate(raw, *codec, lease, &storage); !s.isOk()) return refused(s);
      wire = storage;
    } else {
      wire = contiguous(raw, &storage);  // a copy only when the message came in several slices
      if (Status s = lease.resize(raw.Length() + storage.size(), "request message"); !s.isOk()) return refused(s);
    }
    // What decoding allocates is charged as it is allocated, on top of the message.
    const size_t message = lease.bytes();
    // Processors running on this thread (a transform) charge what they add to the request's claim.
    net::CurrentLease current(&lease);
    IngestResult r = ingestWire(
        wire, *next_, *settings_.telemetry,
        [&lease, message](size_t decoded) { return lease.resize(message + decoded, "decoded request message"); },
        std::move(metadata));
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
  std::shared_ptr<net::InFlightBudget> budget_;
  std::shared_ptr<net::CallSlots> slots_;
  auth::KeyedDigest credential_digest_;
};

GrpcTransport::GrpcTransport(const CreateSettings& settings, GrpcProtocolConfig config, ConsumerPtr next,
                             const net::ServerLimitsConfig& limits, std::shared_ptr<net::InFlightBudget> budget)
    : settings_(settings), config_(std::move(config)), next_(std::move(next)), limits_(limits), budget_(std::move(budget)) {}

GrpcTransport::~GrpcTransport() { shutdown(std::chrono::steady_clock::now()); }

Status GrpcTransport::start(Host& host) {
  const auth::ServerAuthenticator* authenticator = nullptr;
  if (Status s = auth::findServerAuthenticator(host, config_.auth, &authenticator); !s.isOk())
    return Status(s.code(), "OTLP/gRPC: " + s.message());
  service_ = std::make_unique<Service>(settings_, config_, next_, authenticator, budget_);
  std::shared_ptr<grpc::ServerCredentials> credentials = grpc::InsecureServerCredentials();
  if (config_.tls) {
    if (Status s = net::makeGrpcServerCredentials(*config_.tls, &credentials); !s.isOk())
      return Status(s.code(), "OTLP/gRPC: " + s.message());
  }
  grpc::ServerBuilder builder;
  builder.AddListeningPort(config_.endpoint, credentials, &port_);
  builder.SetMaxReceiveMessageSize(static_cast<int>(config_.max_recv_msg_size.bytes));
  // gRPC 1.51 inflates a whole compressed message before comparing it with the limit above (a 4 MB
  // gzip message can become 4 GiB first). Off here: Service::inflate() does it, bounded.
  builder.AddChannelArgument(GRPC_ARG_ENABLE_PER_MESSAGE_DECOMPRESSION, 0);
  if (limits_.max_in_flight_bytes.bytes > 0) {
    // gRPC buffers a whole message before Export() sees it; its memory quota shrinks flow-control
    // windows under pressure, so concurrent large messages wait at their senders, not here.
    grpc::ResourceQuota quota("otlp-grpc-receiver");
    quota.Resize(limits_.max_in_flight_bytes.bytes);
    builder.SetResourceQuota(quota);
  }
  builder.RegisterService(service_.get());
  if (authenticator) {
    // gRPC would answer an unknown method UNIMPLEMENTED before any credentials are looked at.
    unknown_methods_ = std::make_unique<auth::UnknownMethods>(authenticator, [this](const char* reason) {
      service_->countRejected(reason);
    });
    builder.RegisterCallbackGenericService(unknown_methods_.get());
  }
  server_ = builder.BuildAndStart();
  if (!server_ || port_ == 0)
    return Status::unavailable("cannot listen for OTLP/gRPC on " + config_.endpoint +
                               " (address in use or not local?)");
  settings_.logger->info("OTLP/gRPC listening on {} (port {})", config_.endpoint, port_);
  return Status::ok();
}

void GrpcTransport::shutdown(Deadline deadline) {
  // In-flight calls finish on the worker pool.
  net::shutdownGrpcServer(server_, deadline);
}

}  // namespace proflow::receivers::otlp
