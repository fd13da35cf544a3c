// Parca's DebuginfoService on the symbolstore extension, driven by a gRPC client doing what
// parca-agent does (ShouldInitiateUpload, InitiateUpload, Upload stream in chunks,
// MarkUploadFinished), and its refusals: wrong build id, too large, unknown upload, no token.
#define OPENSSL_SUPPRESS_DEPRECATED  // RAND_set_rand_method: the one way to stand in for RAND_bytes
#include <gtest/gtest.h>
#include <openssl/rand.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <atomic>
#include <future>

#include "core/net/http_client.h"
#include "extensions/symbolstore/symbol_store_extension.h"
#include "parca/debuginfo/v1alpha1/debuginfo.grpc.pb.h"
#include "tests/extensions/symbolstore/test_binaries.h"
#include "tests/support/temp_dir.h"

namespace proflow::symbolstore_testing {
namespace {

namespace pb = ::parca::debuginfo::v1alpha1;
using extensions::symbolstore::SymbolStoreExtension;

// Stands in for OpenSSL's random generator (what RAND_bytes calls) while alive.
class RandomSource {
 public:
  explicit RandomSource(int (*bytes)(unsigned char* buf, int num)) : previous_(RAND_get_rand_method()) {
    method_.bytes = bytes;
    method_.status = [] { return 1; };
    RAND_set_rand_method(&method_);
  }
  ~RandomSource() { RAND_set_rand_method(previous_); }
  RandomSource(const RandomSource&) = delete;
  RandomSource& operator=(const RandomSource&) = delete;

  static int failing(unsigned char*, int) { return 0; }
  // 0, 1, 2, ... big-endian in the last 8 bytes: each value larger than the ones before.
  static int counting(unsigned char* buf, int num) {
    static std::atomic<uint64_t> next{0};
    uint64_t v = next++;
    for (int i = num - 1; i >= 0; --i, v >>= 8) buf[i] = static_cast<unsigned char>(v & 0xff);
    return 1;
  }

 private:
  RAND_METHOD method_{};
  const RAND_METHOD* previous_;
};

class GrpcUploadTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    app_ = buildApp(dir_->path().string());
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(app_.error.empty()) << app_.error;
    debug_ = testing::readFile(app_.debug);
    service_ = startService(R"(
extensions:
  bearertokenauth/ci: { token: ci-token }
  symbolstore:
    endpoint: 127.0.0.1:0
    grpc_endpoint: 127.0.0.1:0
    directory: )" + t_.file("store") + R"(
    max_upload_size: )" + std::to_string(debug_.size() + 100) + R"(
    auth: { authenticator: bearertokenauth/ci }
receivers: { fake: {} }
exporters: { fake: {} }
service:
  extensions: [bearertokenauth/ci, symbolstore]
  shutdown_timeout: 1s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines: { profiles: { receivers: [fake], exporters: [fake] } }
)");
    ASSERT_TRUE(service_);
    ext_ = dynamic_cast<SymbolStoreExtension*>(service_->extension(ComponentId{"symbolstore", ""}));
    ASSERT_NE(ext_, nullptr);
    auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(ext_->grpcPort()), grpc::InsecureChannelCredentials());
    stub_ = pb::DebuginfoService::NewStub(channel);
  }

  std::unique_ptr<grpc::ClientContext> context(const std::string& token = "ci-token") {
    auto ctx = std::make_unique<grpc::ClientContext>();
    if (!token.empty()) ctx->AddMetadata("authorization", "Bearer " + token);
    ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    return ctx;
  }

  grpc::Status shouldInitiate(const std::string& id, bool* should) {
    pb::ShouldInitiateUploadRequest req;
    req.set_build_id(id);
    req.set_build_id_type(pb::BUILD_ID_TYPE_GNU);
    pb::ShouldInitiateUploadResponse resp;
    grpc::Status s = stub_->ShouldInitiateUpload(context().get(), req, &resp);
    *should = resp.should_initiate_upload();
    return s;
  }

  grpc::Status initiate(const std::string& id, int64_t size, std::string* upload_id) {
    pb::InitiateUploadRequest req;
    req.set_build_id(id);
    req.set_size(size);
    req.set_hash("file-hash");
    req.set_build_id_type(pb::BUILD_ID_TYPE_GNU);
    pb::InitiateUploadResponse resp;
    grpc::Status s = stub_->InitiateUpload(context().get(), req, &resp);
    EXPECT_TRUE(!s.ok() || resp.upload_instructions().upload_strategy() ==
                               pb::UploadInstructions::UPLOAD_STRATEGY_GRPC);
    *upload_id = resp.upload_instructions().upload_id();
    return s;
  }

  // The payload in 4 KiB chunks after the info message, as uploaders stream it.
  grpc::Status upload(const std::string& id, const std::string& upload_id, const std::string& payload,
                      pb::UploadResponse* resp, const std::string& token = "ci-token") {
    auto ctx = context(token);
    auto writer = stub_->Upload(ctx.get(), resp);
    pb::UploadRequest info;
    info.mutable_info()->set_build_id(id);
    info.mutable_info()->set_upload_id(upload_id);
    bool ok = writer->Write(info);
    for (size_t off = 0; ok && off < payload.size(); off += 4096) {
      pb::UploadRequest chunk;
      chunk.set_chunk_data(payload.substr(off, 4096));
      ok = writer->Write(chunk);
    }
    writer->WritesDone();
    return writer->Finish();
  }

  double refused(const char* reason) {
    return service_->metrics().value("proflow_extension_symbolstore_uploads_refused_total",
                                     {{"extension", "symbolstore"}, {"protocol", "grpc"}, {"reason", reason}});
  }

  static inline testing::TempDir* dir_ = nullptr;
  static inline App app_;
  testing::TempDir t_;
  std::string debug_;
  std::unique_ptr<Service> service_;
  SymbolStoreExtension* ext_ = nullptr;
  std::unique_ptr<pb::DebuginfoService::Stub> stub_;
};

TEST_F(GrpcUploadTest, ParcaUploadFlowStoresTheFileAndDebuginfodServesIt) {
  bool should = false;
  ASSERT_TRUE(shouldInitiate(app_.build_id, &should).ok());
  EXPECT_TRUE(should);
  std::string upload_id;
  grpc::Status s = initiate(app_.build_id, static_cast<int64_t>(debug_.size()), &upload_id);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_FALSE(upload_id.empty());
  pb::UploadResponse resp;
  s = upload(app_.build_id, upload_id, debug_, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.build_id(), app_.build_id);
  EXPECT_EQ(resp.size(), debug_.size());
  pb::MarkUploadFinishedRequest mark;
  mark.set_build_id(app_.build_id);
  mark.set_upload_id(upload_id);
  pb::MarkUploadFinishedResponse done;
  s = stub_->MarkUploadFinished(context().get(), mark, &done);
  EXPECT_TRUE(s.ok()) << s.error_message();

  // Now known: no second upload, and an InitiateUpload says so, with force too: a stored file is
  // never replaced.
  ASSERT_TRUE(shouldInitiate(app_.build_id, &should).ok());
  EXPECT_FALSE(should);
  EXPECT_EQ(initiate(app_.build_id, 10, &upload_id).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  for (bool force : {false, true}) {
    pb::InitiateUploadRequest req;
    req.set_build_id(app_.build_id);
    req.set_size(10);
    req.set_force(force);
    pb::InitiateUploadResponse resp;
    EXPECT_EQ(stub_->InitiateUpload(context().get(), req, &resp).error_code(), grpc::StatusCode::ALREADY_EXISTS);
    pb::ShouldInitiateUploadRequest should_req;
    should_req.set_build_id(app_.build_id);
    should_req.set_force(force);
    pb::ShouldInitiateUploadResponse should_resp;
    ASSERT_TRUE(stub_->ShouldInitiateUpload(context().get(), should_req, &should_resp).ok());
    EXPECT_FALSE(should_resp.should_initiate_upload()) << "force " << force;
  }

  net::HttpClient client({});
  net::HttpResult r = client.request("GET", "http://127.0.0.1:" + std::to_string(ext_->httpPort()) + "/buildid/" +
                                                app_.build_id + "/debuginfo",
                                     {{"Authorization", "Bearer ci-token"}}, {}, std::chrono::seconds(10));
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.body, debug_);
  EXPECT_EQ(service_->metrics().value("proflow_extension_symbolstore_uploads_total",
                                      {{"extension", "symbolstore"}, {"protocol", "grpc"}}),
            1);
}

TEST_F(GrpcUploadTest, RefusesWrongBuildIdOversizedUnknownUploadAndMissingToken) {
  const std::string other_id = "00112233445566778899aabbccddeeff00112233";
  std::string upload_id;
  ASSERT_TRUE(initiate(other_id, static_cast<int64_t>(debug_.size()), &upload_id).ok());
  pb::UploadResponse resp;
  grpc::Status s = upload(other_id, upload_id, debug_, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("build id mismatch"), std::string::npos) << s.error_message();
  EXPECT_EQ(refused("build_id_mismatch"), 1);

  // Cut off: fewer bytes than InitiateUpload announced.
  ASSERT_TRUE(initiate(app_.build_id, static_cast<int64_t>(debug_.size()), &upload_id).ok());
  s = upload(app_.build_id, upload_id, debug_.substr(0, debug_.size() / 2), &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("InitiateUpload announced " + std::to_string(debug_.size())), std::string::npos)
      << s.error_message();

  // Announced too large, and streamed too large despite a small announcement.
  s = initiate(app_.build_id, static_cast<int64_t>(debug_.size()) + 1000, &upload_id);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("max_upload_size"), std::string::npos) << s.error_message();
  ASSERT_TRUE(initiate(app_.build_id, 10, &upload_id).ok());
  s = upload(app_.build_id, upload_id, debug_ + std::string(1000, '\0'), &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
  EXPECT_EQ(refused("too_large"), 2);

  // Not ELF, an upload id nobody issued, no credentials.
  ASSERT_TRUE(initiate(app_.build_id, 10, &upload_id).ok());
  s = upload(app_.build_id, upload_id, "plain text", &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("not an ELF file"), std::string::npos);
  s = upload(app_.build_id, "made-up", debug_, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  s = upload(app_.build_id, upload_id, debug_, &resp, "");
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(refused("unauthenticated"), 1);
  bool should = false;
  EXPECT_TRUE(shouldInitiate(app_.build_id, &should).ok());
  EXPECT_TRUE(should);  // nothing was stored
}

// A method the API does not have: UNAUTHENTICATED without the token (a client without it learns
// nothing of what exists), UNIMPLEMENTED with it.
TEST_F(GrpcUploadTest, UnknownMethodsNeedTheTokenBeforeTheyAreSaidUnknown) {
  auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(ext_->grpcPort()), grpc::InsecureChannelCredentials());
  grpc::GenericStub generic(channel);
  auto call = [&](const std::string& token) {
    auto ctx = context(token);
    grpc::Slice empty("");
    grpc::ByteBuffer request(&empty, 1), response;
    std::promise<grpc::Status> answer;
    generic.UnaryCall(ctx.get(), "/parca.debuginfo.v1alpha1.DebuginfoService/Delete", grpc::StubOptions(), &request,
                      &response, [&answer](grpc::Status s) { answer.set_value(s); });
    return answer.get_future().get();
  };
  EXPECT_EQ(call("").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(call("wrong").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(call("ci-token").error_code(), grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_EQ(refused("unauthenticated"), 2);
}

TEST_F(GrpcUploadTest, NoUploadIdIsMadeUpWhenRandomnessFails) {
  std::string upload_id = "unset";
  grpc::Status s;
  {
    RandomSource broken(&RandomSource::failing);
    s = initiate(app_.build_id, static_cast<int64_t>(debug_.size()), &upload_id);
  }
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE) << s.error_message();
  EXPECT_TRUE(upload_id.empty());
  EXPECT_EQ(refused("no_randomness"), 1);
  // An all-zero id (what a failed RAND_bytes used to give) is not a valid upload.
  pb::UploadResponse resp;
  EXPECT_EQ(upload(app_.build_id, std::string(32, '0'), debug_, &resp).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(GrpcUploadTest, AnUploadReceivingDataIsNeverEvictedForNewOnes) {
  constexpr int kSlots = 4096;  // upload ids held at once
  RandomSource ordered(&RandomSource::counting);  // the live upload gets the smallest id of all
  std::string live_id;
  ASSERT_TRUE(initiate(app_.build_id, static_cast<int64_t>(debug_.size()), &live_id).ok());
  auto ctx = context();
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::minutes(2));  // open across 4097 calls
  pb::UploadResponse resp;
  auto writer = stub_->Upload(ctx.get(), &resp);
  pb::UploadRequest info;
  info.mutable_info()->set_build_id(app_.build_id);
  info.mutable_info()->set_upload_id(live_id);
  ASSERT_TRUE(writer->Write(info));
  pb::UploadRequest chunk;
  chunk.set_chunk_data(debug_.substr(0, debug_.size() / 2));
  ASSERT_TRUE(writer->Write(chunk));

  // Every slot taken, then more: each new one evicts an abandoned upload, never the live one.
  std::vector<std::string> abandoned(kSlots + 1);
  for (auto& id : abandoned) ASSERT_TRUE(initiate("00112233445566778899aabbccddeeff00112233", 10, &id).ok());
  chunk.set_chunk_data(debug_.substr(debug_.size() / 2));
  ASSERT_TRUE(writer->Write(chunk));
  writer->WritesDone();
  ASSERT_TRUE(writer->Finish().ok());

  pb::MarkUploadFinishedRequest mark;
  mark.set_build_id(app_.build_id);
  mark.set_upload_id(live_id);
  pb::MarkUploadFinishedResponse done;
  grpc::Status marked = stub_->MarkUploadFinished(context().get(), mark, &done);
  EXPECT_TRUE(marked.ok()) << marked.error_message();
  // The ones evicted were the oldest abandoned ones.
  pb::UploadResponse ignored;
  grpc::Status evicted = upload("00112233445566778899aabbccddeeff00112233", abandoned[0], "x", &ignored);
  EXPECT_NE(evicted.error_message().find("unknown upload_id"), std::string::npos) << evicted.error_message();
}

}  // namespace
}  // namespace proflow::symbolstore_testing
