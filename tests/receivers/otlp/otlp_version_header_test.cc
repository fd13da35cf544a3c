// The OTLP profiles development-version header: no header or version 1 is accepted; anything else
// is refused before decoding (INVALID_ARGUMENT / 400 naming the supported version), on both
// transports. The otlp and otlphttp exporters send it only when asked to.
#include <grpcpp/grpcpp.h>

#include "core/net/http_client.h"
#include "core/model/otlp_profiles_version.h"
#include "exporters/otlp_http/http_sender.h"
#include "google/rpc/status.pb.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/profile_builder.h"
#include "tests/support/flat_request.h"

namespace proflow {
namespace {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;

otlp::Request sample() {
  testing::ProfileSpec p;
  p.samples = {{{"leaf", "main"}, 2}};
  return testing::makeRequest("web", {p});
}

class VersionHeaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    http_ = testing::freePort();
    grpc_ = testing::freePort();
    service_ = testing::startService(R"(
receivers:
  otlp:
    protocols:
      http: { endpoint: "127.0.0.1:)" + std::to_string(http_) + R"(" }
      grpc: { endpoint: "127.0.0.1:)" + std::to_string(grpc_) + R"(" }
exporters: { debug: {} }
service:
  telemetry: { metrics: { address: none } }
  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }
)");
    ASSERT_TRUE(service_);
  }

  net::HttpResult postHttp(const std::vector<std::string>& versions, const std::string& body) {
    net::HttpHeaders h{{"Content-Type", "application/x-protobuf"}};
    for (const auto& v : versions) h.emplace(std::string(kProfilesVersionHeader), v);
    return client_.request("POST", "http://127.0.0.1:" + std::to_string(http_) + "/v1development/profiles", h, body,
                           std::chrono::seconds(10));
  }

  grpc::Status exportGrpc(const std::vector<std::string>& versions) {
    auto stub = collector::ProfilesService::NewStub(
        grpc::CreateChannel("127.0.0.1:" + std::to_string(grpc_), grpc::InsecureChannelCredentials()));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    for (const auto& v : versions) ctx.AddMetadata(std::string(kProfilesVersionMetadata), v);
    collector::ExportProfilesServiceResponse resp;
    return stub->Export(&ctx, sample(), &resp);
  }

  int http_ = 0, grpc_ = 0;
  std::unique_ptr<Service> service_;
  net::HttpClient client_{net::HttpClientOptions{}};
};

TEST_F(VersionHeaderTest, HttpAcceptsNoneOrOneAndRefusesOthersBeforeDecoding) {
  const std::string body = sample().SerializeAsString();
  EXPECT_EQ(postHttp({}, body).http_status, 200);
  EXPECT_EQ(postHttp({"1"}, body).http_status, 200);
  // A version-2 body is garbage to this receiver: the answer names the version, not a parse error.
  auto v2 = postHttp({"2"}, "\xff\xff not protobuf");
  EXPECT_EQ(v2.http_status, 400);
  google::rpc::Status status;
  ASSERT_TRUE(status.ParseFromString(v2.body));
  EXPECT_NE(status.message().find("version 2 is not supported"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("supported: 1"), std::string::npos) << status.message();
  EXPECT_EQ(postHttp({"1, 1"}, body).http_status, 400);  // repeats folded into one line by a proxy
  EXPECT_EQ(postHttp({"x"}, body).http_status, 400);
}

TEST_F(VersionHeaderTest, GrpcAcceptsNoneOrOneAndRefusesOthers) {
  EXPECT_TRUE(exportGrpc({}).ok());
  EXPECT_TRUE(exportGrpc({"1"}).ok());
  grpc::Status v2 = exportGrpc({"2"});
  EXPECT_EQ(v2.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(v2.error_message().find("supported: 1"), std::string::npos) << v2.error_message();
  EXPECT_EQ(exportGrpc({"0"}).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(exportGrpc({"1", "1"}).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(service_->metrics().value("proflow_receiver_grpc_rejected_requests_total",
                                      {{"receiver", "otlp"}, {"reason", "unsupported_version"}}),
            3);
}

TEST(OtlpHttpExporterVersionHeader, SentOnlyWhenAsked) {
  exporters::otlphttp::OtlpHttpExporterConfig cfg;
  cfg.endpoint = "http://127.0.0.1:1";
  exporters::otlphttp::EncodedRequest off, on;
  ASSERT_TRUE(exporters::otlphttp::encodeRequest(cfg, ::proflow::testing::batchOf(sample()), &off).isOk());
  EXPECT_EQ(off.headers.count(std::string(kProfilesVersionHeader)), 0u);
  cfg.send_version_header = true;
  ASSERT_TRUE(exporters::otlphttp::encodeRequest(cfg, ::proflow::testing::batchOf(sample()), &on).isOk());
  EXPECT_EQ(net::headerValue(on.headers, kProfilesVersionHeader), "1");
}

}  // namespace
}  // namespace proflow
