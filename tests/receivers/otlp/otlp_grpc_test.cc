// OTLP over gRPC into the file exporter, through a real socket.
#include <google/protobuf/util/message_differencer.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <zlib.h>

#include "core/net/grpc_status.h"
#include "google/rpc/status.pb.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/otlp_files.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;
using google::protobuf::util::MessageDifferencer;

class OtlpGrpcTest : public ::testing::Test {
 protected:
  std::string yaml(const std::string& receiver_extra = "", const std::string& exporters = "") {
    port_ = testing::freePort();
    return R"(
receivers:
  otlp:
    protocols:
      grpc:
        endpoint: 127.0.0.1:)" +
           std::to_string(port_) + "\n" + receiver_extra + R"(
exporters:
  file:
    path: )" + dir_.file("out.bin") +
           R"(
    format: otlp_proto
)" + exporters + R"(
service:
  shutdown_timeout: 1s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles: { receivers: [otlp], exporters: [)" +
           (exporters.empty() ? "file" : "otlp/dead") + "] }\n";
  }

  std::unique_ptr<collector::ProfilesService::Stub> stub() {
    auto ch = grpc::CreateChannel("127.0.0.1:" + std::to_string(port_), grpc::InsecureChannelCredentials());
    return collector::ProfilesService::NewStub(ch);
  }

  grpc::Status sendRaw(const std::string& bytes, bool gzip = false) {
    auto ch = grpc::CreateChannel("127.0.0.1:" + std::to_string(port_), grpc::InsecureChannelCredentials());
    grpc::GenericStub generic(ch);
    grpc::ClientContext ctx;
    if (gzip) ctx.set_compression_algorithm(GRPC_COMPRESS_GZIP);
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    grpc::Slice slice(bytes);
    grpc::ByteBuffer req(&slice, 1), resp;
    grpc::Status status;
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    generic.UnaryCall(&ctx, "/opentelemetry.proto.collector.profiles.v1development.ProfilesService/Export",
                      grpc::StubOptions(), &req, &resp, [&](grpc::Status s) {
                        std::lock_guard lock(mu);
                        status = s;
                        done = true;
                        cv.notify_all();
                      });
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return done; });
    return status;
  }

  testing::TempDir dir_;
  int port_ = 0;
};

otlp::Request sampleRequest() {
  testing::ProfileSpec p;
  p.samples = {{{"leaf", "mid", "main"}, 10}, {{"other", "main"}, 3}};
  auto r = testing::makeRequest("checkout", {p, testing::makeProfile(20, 1)});
  // A link, so the ids travel too.
  auto* link = r.mutable_dictionary()->add_link_table();
  link->set_trace_id(std::string("0123456789abcdef", 16));
  link->set_span_id(std::string("fedcba98", 8));
  r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->mutable_samples(0)->set_link_index(
      r.dictionary().link_table_size() - 1);
  return r;
}

TEST_F(OtlpGrpcTest, DeliversRequestsIntoTheFileExporterUnchanged) {
  auto service = testing::startService(yaml());
  ASSERT_TRUE(service);
  auto request = sampleRequest();
  for (bool gzip : {false, true}) {
    grpc::ClientContext ctx;
    if (gzip) ctx.set_compression_algorithm(GRPC_COMPRESS_GZIP);
    otlp::Response response;
    grpc::Status s = stub()->Export(&ctx, request, &response);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_FALSE(response.has_partial_success());
  }
  service->shutdown();
  auto written = testing::readOtlpProtoFile(dir_.file("out.bin"));
  ASSERT_EQ(written.size(), 2u);
  for (const auto& w : written) EXPECT_TRUE(MessageDifferencer::Equals(w, request)) << w.DebugString();
  EXPECT_EQ(service->metrics().value("proflow_receiver_accepted_profiles_total", {{"receiver", "otlp"}}), 4);
  EXPECT_EQ(service->metrics().value("proflow_exporter_sent_batches_total", {{"exporter", "file"}}), 2);
}

TEST_F(OtlpGrpcTest, EmptyRequestIsAccepted) {
  auto service = testing::startService(yaml());
  ASSERT_TRUE(service);
  grpc::ClientContext ctx;
  otlp::Response response;
  EXPECT_TRUE(stub()->Export(&ctx, otlp::Request(), &response).ok());
}

TEST_F(OtlpGrpcTest, MalformedPayloadIsInvalidArgumentAndTheServerKeepsServing) {
  auto service = testing::startService(yaml());
  ASSERT_TRUE(service);
  grpc::Status s = sendRaw(std::string("\x0a\xff\xff\xff\xff\x0f garbage", 14));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("not a valid ExportProfilesServiceRequest"), std::string::npos);

  auto broken = sampleRequest();
  broken.mutable_dictionary()->mutable_stack_table(1)->add_location_indices(4242);
  grpc::ClientContext ctx;
  otlp::Response response;
  s = stub()->Export(&ctx, broken, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("location index 4242 out of range"), std::string::npos) << s.error_message();

  grpc::ClientContext ctx2;
  EXPECT_TRUE(stub()->Export(&ctx2, sampleRequest(), &response).ok());
  EXPECT_EQ(service->metrics().value("proflow_receiver_refused_batches_total", {{"receiver", "otlp"}}), 2);
}

TEST_F(OtlpGrpcTest, PartiallyInvalidRequestGetsPartialSuccess) {
  auto service = testing::startService(yaml());
  ASSERT_TRUE(service);
  auto r = sampleRequest();
  r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(1)->mutable_samples(0)->set_stack_index(
      99999);
  grpc::ClientContext ctx;
  otlp::Response response;
  ASSERT_TRUE(stub()->Export(&ctx, r, &response).ok());
  EXPECT_EQ(response.partial_success().rejected_profiles(), 1);
  EXPECT_NE(response.partial_success().error_message().find("stack_index 99999"), std::string::npos);
  service->shutdown();
  EXPECT_EQ(testing::allProfiles(testing::readOtlpProtoFile(dir_.file("out.bin"))).size(), 1u);
}

TEST_F(OtlpGrpcTest, OversizedAndBombRequestsAreRefusedWithoutRetry) {
  auto service = testing::startService(yaml("        max_recv_msg_size: 1MiB"));
  ASSERT_TRUE(service);
  // A 2 MiB string in the dictionary: over the limit as sent.
  otlp::Request big = sampleRequest();
  big.mutable_dictionary()->add_string_table(std::string(2 << 20, 'x'));
  grpc::ClientContext ctx;
  otlp::Response response;
  grpc::Status s = stub()->Export(&ctx, big, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_FALSE(fromGrpcStatus(s).retryable());

  // 64 MiB of one repeated byte compresses to ~64 KiB: the limit must apply after decompression.
  otlp::Request bomb;
  bomb.mutable_dictionary()->add_string_table(std::string(64 << 20, 'a'));
  s = sendRaw(bomb.SerializeAsString(), /*gzip=*/true);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();

  grpc::ClientContext ctx2;
  EXPECT_TRUE(stub()->Export(&ctx2, sampleRequest(), &response).ok());  // still serving
}

TEST_F(OtlpGrpcTest, FullExporterQueueIsRefusedWithRetryInfo) {
  const int dead_port = testing::freePort();  // nothing listens there
  auto service = testing::startService(yaml("", R"(
  otlp/dead:
    endpoint: 127.0.0.1:)" + std::to_string(dead_port) + R"(
    tls: { insecure: true }
    timeout: 200ms
    sending_queue: { num_consumers: 1, queue_size: 2 }
    retry_on_failure: { initial_interval: 10s, max_interval: 10s, max_elapsed_time: 0 }
)"));
  ASSERT_TRUE(service);
  int accepted = 0;
  grpc::Status refused;
  for (int i = 0; i < 6 && refused.ok(); ++i) {
    grpc::ClientContext ctx;
    otlp::Response response;
    grpc::Status s = stub()->Export(&ctx, sampleRequest(), &response);
    if (s.ok()) ++accepted;
    else refused = s;
  }
  // Two queued are accepted, plus one more if the sender already took the first into its retry
  // loop (how soon it does depends on scheduling); the next is refused.
  EXPECT_GE(accepted, 2);
  EXPECT_LE(accepted, 3);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  Status parsed = fromGrpcStatus(refused);
  EXPECT_TRUE(parsed.retryable()) << "RetryInfo must be attached";
  EXPECT_GT(parsed.retryAfter().count(), 0);
}

}  // namespace
}  // namespace proflow
