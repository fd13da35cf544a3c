#include "extensions/symbolstore/grpc_api.h"

#include <grpcpp/grpcpp.h>
#include <openssl/rand.h>
#include <spdlog/logger.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>

#include "core/auth/grpc_auth.h"
#include "core/net/grpc_status.h"
#include "core/net/grpc_server.h"
#include "core/util/hex.h"
#include "extensions/symbolstore/elf_check.h"
#include "parca/debuginfo/v1alpha1/debuginfo.grpc.pb.h"

namespace proflow::extensions::symbolstore {

namespace pb = ::parca::debuginfo::v1alpha1;

namespace {

constexpr int kMaxMessageBytes = 64 << 20;  // Parca's limit; uploaders send 8 MiB chunks

// An upload id is the only thing tying Upload calls to the InitiateUpload that allowed them, so
// it must not be guessable: without randomness there is no id (never a predictable one).
std::optional<std::string> newUploadId() {
  unsigned char raw[16];
  if (RAND_bytes(raw, sizeof raw) != 1) return std::nullopt;
  return hexEncode(raw);
}

// Sources and source maps are not stored; debuginfo and executables are.
bool artifactOf(pb::DebuginfoType type, Artifact* out) {
  if (type == pb::DEBUGINFO_TYPE_DEBUGINFO_UNSPECIFIED) *out = Artifact::kDebuginfo;
  else if (type == pb::DEBUGINFO_TYPE_EXECUTABLE) *out = Artifact::kExecutable;
  else return false;
  return true;
}

}  // namespace

class GrpcApi::Service final : public pb::DebuginfoService::Service {
 public:
  Service(SymbolStore& store, const auth::ServerAuthenticator* authenticator)
      : store_(store), authenticator_(authenticator) {}

  grpc::Status ShouldInitiateUpload(grpc::ServerContext* ctx, const pb::ShouldInitiateUploadRequest* req,
                                    pb::ShouldInitiateUploadResponse* resp) override {
    std::string id;
    Artifact artifact;
    if (grpc::Status s = check(*ctx, req->build_id(), req->type(), &id, &artifact); !s.ok()) return s;
    if (req->build_id_type() != pb::BUILD_ID_TYPE_GNU && req->build_id_type() != pb::BUILD_ID_TYPE_UNKNOWN_UNSPECIFIED) {
      resp->set_should_initiate_upload(false);
      resp->set_reason("only GNU build ids are stored");
    } else if (store_.files().contains(id, artifact)) {
      // `force` does not replace a stored file: that would let any uploader swap another's debug info.
      resp->set_should_initiate_upload(false);
      resp->set_reason("debuginfo already exists");
    } else {
      resp->set_should_initiate_upload(true);
      resp->set_reason("debuginfo not in the store");
    }
    return grpc::Status::OK;
  }

  grpc::Status InitiateUpload(grpc::ServerContext* ctx, const pb::InitiateUploadRequest* req,
                              pb::InitiateUploadResponse* resp) override {
    std::string id;
    Artifact artifact;
    if (grpc::Status s = check(*ctx, req->build_id(), req->type(), &id, &artifact); !s.ok()) return s;
    if (req->size() <= 0) return refuse("bad_request", Status::invalid("size must be positive"));
    if (static_cast<uint64_t>(req->size()) > store_.maxUploadSize())
      return refuse("too_large", Status::invalid("size " + std::to_string(req->size()) +
                                                 " is larger than max_upload_size (" +
                                                 std::to_string(store_.maxUploadSize()) + " bytes)"));
    if (store_.files().contains(id, artifact))
      return grpc::Status(grpc::StatusCode::ALREADY_EXISTS, "debuginfo already exists; stored files are never replaced");
    const std::optional<std::string> upload_id = newUploadId();
    if (!upload_id)
      return refuse("no_randomness", Status::unavailable("no randomness for an upload id (RAND_bytes failed); retry later"));
    {
      std::lock_guard lock(mu_);
      if (uploads_.size() >= kMaxPendingUploads && !evictAbandonedLocked())
        return refuse("too_many_uploads", Status::exhausted("all " + std::to_string(kMaxPendingUploads) +
                                                            " upload slots are receiving data; retry later"));
      uploads_[*upload_id] = PendingUpload{id, artifact, static_cast<uint64_t>(req->size()), false, ++initiated_, 0};
    }
    auto* ins = resp->mutable_upload_instructions();
    ins->set_build_id(id);
    ins->set_upload_id(*upload_id);
    ins->set_upload_strategy(pb::UploadInstructions::UPLOAD_STRATEGY_GRPC);
    ins->set_type(req->type());
    return grpc::Status::OK;
  }

  grpc::Status Upload(grpc::ServerContext* ctx, grpc::ServerReader<pb::UploadRequest>* reader,
                      pb::UploadResponse* resp) override {
    if (grpc::Status s = authenticate(*ctx); !s.ok()) return s;
    pb::UploadRequest msg;
    if (!reader->Read(&msg) || !msg.has_info())
      return refuse("bad_request", Status::invalid("the first Upload message must carry info"));
    std::string id;
    Artifact artifact;
    if (grpc::Status s = check(*ctx, msg.info().build_id(), msg.info().type(), &id, &artifact); !s.ok()) return s;
    uint64_t announced = 0;
    const std::string& upload_id = msg.info().upload_id();
    {
      std::lock_guard lock(mu_);
      auto it = uploads_.find(upload_id);
      if (it == uploads_.end() || it->second.build_id != id || it->second.artifact != artifact)
        return refuse("bad_request", Status::invalid("unknown upload_id for this build id (call InitiateUpload first)"));
      announced = it->second.size;
      ++it->second.receiving;  // live: never evicted while data arrives
    }
    Receiving receiving(*this, upload_id);
    const std::string temp = store_.files().newTempPath();
    uint64_t size = 0;
    grpc::Status failed = receive(reader, temp, &size);
    // A cancelled stream ends like a finished one: the announced size tells a cut-off file apart.
    if (failed.ok() && ctx->IsCancelled()) failed = grpc::Status(grpc::StatusCode::CANCELLED, "upload cancelled");
    if (failed.ok() && size != announced)
      failed = refuse("bad_request", Status::invalid("received " + std::to_string(size) +
                                                     " bytes, InitiateUpload announced " + std::to_string(announced)));
    if (!failed.ok()) {
      std::error_code ec;
      std::filesystem::remove(temp, ec);
      return failed;
    }
    if (Status s = store_.storeFile(temp, id, artifact, "grpc"); !s.isOk()) {
      if (s.code() == StatusCode::kFailedPrecondition) return grpc::Status(grpc::StatusCode::ALREADY_EXISTS, s.message());
      return toGrpcStatus(s);
    }
    {
      std::lock_guard lock(mu_);
      if (auto it = uploads_.find(upload_id); it != uploads_.end()) it->second.stored = true;
    }
    resp->set_build_id(id);
    resp->set_size(size);
    return grpc::Status::OK;
  }

  grpc::Status MarkUploadFinished(grpc::ServerContext* ctx, const pb::MarkUploadFinishedRequest* req,
                                  pb::MarkUploadFinishedResponse*) override {
    if (grpc::Status s = authenticate(*ctx); !s.ok()) return s;
    std::lock_guard lock(mu_);
    auto it = uploads_.find(req->upload_id());
    if (it == uploads_.end() || !it->second.stored)
      return grpc::Status(grpc::StatusCode::NOT_FOUND, "no finished upload with this upload_id");
    if (normalizeBuildId(req->build_id()) != it->second.build_id)
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "build_id does not match the upload");
    uploads_.erase(it);
    return grpc::Status::OK;
  }

 private:
  static constexpr size_t kMaxPendingUploads = 4096;
  struct PendingUpload {
    std::string build_id;
    Artifact artifact;
    uint64_t size;  // announced by InitiateUpload
    bool stored;
    uint64_t initiated;  // order of InitiateUpload calls
    int receiving;       // Upload streams of this id in progress
  };

  // While an Upload stream of `upload_id` runs.
  class Receiving {
   public:
    Receiving(Service& service, std::string upload_id) : service_(service), upload_id_(std::move(upload_id)) {}
    ~Receiving() {
      std::lock_guard lock(service_.mu_);
      if (auto it = service_.uploads_.find(upload_id_); it != service_.uploads_.end()) --it->second.receiving;
    }
    Receiving(const Receiving&) = delete;
    Receiving& operator=(const Receiving&) = delete;

   private:
    Service& service_;
    std::string upload_id_;
  };

  // Makes room for one upload: forgets the one initiated longest ago that is not receiving data
  // (abandoned, or stored and never marked finished). False when every slot is live.
  bool evictAbandonedLocked() {
    auto victim = uploads_.end();
    for (auto it = uploads_.begin(); it != uploads_.end(); ++it)
      if (it->second.receiving == 0 && (victim == uploads_.end() || it->second.initiated < victim->second.initiated))
        victim = it;
    if (victim == uploads_.end()) return false;
    uploads_.erase(victim);
    return true;
  }

  // Streams the chunks to `temp`, refusing as soon as the total passes max_upload_size.
  grpc::Status receive(grpc::ServerReader<pb::UploadRequest>* reader, const std::string& temp, uint64_t* size) {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    pb::UploadRequest msg;
    while (reader->Read(&msg)) {
      if (!msg.has_chunk_data()) return refuse("bad_request", Status::invalid("only chunk_data may follow info"));
      *size += msg.chunk_data().size();
      if (*size > store_.maxUploadSize())
        return refuse("too_large", Status::tooLarge("upload larger than max_upload_size (" +
                                                     std::to_string(store_.maxUploadSize()) + " bytes)"));
      out.write(msg.chunk_data().data(), static_cast<std::streamsize>(msg.chunk_data().size()));
    }
    out.close();
    if (!out) return refuse("store_error", Status::unavailable("cannot write the upload to the store's disk"));
    return grpc::Status::OK;
  }

  grpc::Status check(grpc::ServerContext& ctx, const std::string& build_id, pb::DebuginfoType type, std::string* id,
                     Artifact* artifact) {
    if (grpc::Status s = authenticate(ctx); !s.ok()) return s;
    auto n = normalizeBuildId(build_id);
    if (!n) return refuse("bad_request", Status::invalid("build_id must be a hex GNU build id (even length, 4..128)"));
    if (!artifactOf(type, artifact))
      return refuse("bad_request", Status::invalid("only debuginfo and executables are stored, not sources"));
    *id = *n;
    return grpc::Status::OK;
  }

  grpc::Status authenticate(grpc::ServerContext& ctx) {
    // These handlers run on gRPC's own threads: waiting here holds no I/O thread, and the hash runs
    // behind the authenticator's bounded queue.
    Status s = auth::authenticateCallBlocking(authenticator_, ctx);
    if (s.isOk()) return grpc::Status::OK;
    return refuse(auth::authRefusalReason(s), s);
  }

  grpc::Status refuse(const char* reason, const Status& s) {
    store_.countRefused("grpc", reason);
    return toGrpcStatus(s);
  }

  SymbolStore& store_;
  const auth::ServerAuthenticator* authenticator_;
  std::mutex mu_;
  std::map<std::string, PendingUpload> uploads_;  // by upload_id
  uint64_t initiated_ = 0;
};

GrpcApi::GrpcApi(SymbolStore& store, const auth::ServerAuthenticator* authenticator,
                 std::shared_ptr<spdlog::logger> logger)
    : service_(std::make_unique<Service>(store, authenticator)),
      store_(store),
      authenticator_(authenticator),
      logger_(std::move(logger)) {}

GrpcApi::~GrpcApi() { shutdown(std::chrono::steady_clock::now()); }

Status GrpcApi::start(const std::string& endpoint, std::shared_ptr<grpc::ServerCredentials> credentials) {
  grpc::ServerBuilder builder;
  builder.AddListeningPort(endpoint, std::move(credentials), &port_);
  builder.SetMaxReceiveMessageSize(kMaxMessageBytes);
  builder.RegisterService(service_.get());
  if (authenticator_) {
    // gRPC would answer an unknown method UNIMPLEMENTED before any credentials are looked at.
    unknown_methods_ = std::make_unique<auth::UnknownMethods>(
        authenticator_, [store = &store_](const char* reason) { store->countRefused("grpc", reason); });
    builder.RegisterCallbackGenericService(unknown_methods_.get());
  }
  server_ = builder.BuildAndStart();
  if (!server_ || port_ == 0)
    return Status::unavailable("cannot listen for the symbol store's gRPC API on " + endpoint);
  logger_->info("symbol store gRPC (parca.debuginfo.v1alpha1.DebuginfoService) listening on {} (port {})", endpoint,
                port_);
  return Status::ok();
}

void GrpcApi::shutdown(Deadline deadline) {
  net::shutdownGrpcServer(server_, deadline);
}

}  // namespace proflow::extensions::symbolstore
