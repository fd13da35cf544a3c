// Through the daemon: OTLP/gRPC -> profiles/in -> forward -> profiles/a (resource processor, file)
// and profiles/b (file). Each pipeline gets every profile; an edit in one does not reach the other.
#include <grpcpp/grpcpp.h>

#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/otlp_files.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;

TEST(ForwardConnectorE2E, JoinsPipelines) {
  testing::TempDir dir;
  int port = testing::freePort();
  auto service = testing::startService(R"(
receivers:
  otlp: { protocols: { grpc: { endpoint: "127.0.0.1:)" + std::to_string(port) + R"(" } } }
processors:
  resource: { attributes: [ { key: tier, value: a, action: insert } ] }
exporters:
  file/a: { path: ")" + dir.file("a.bin") + R"(", format: otlp_proto }
  file/b: { path: ")" + dir.file("b.bin") + R"(", format: otlp_proto }
connectors:
  forward: {}
service:
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles/in: { receivers: [otlp], exporters: [forward] }
    profiles/a: { receivers: [forward], processors: [resource], exporters: [file/a] }
    profiles/b: { receivers: [forward], exporters: [file/b] }
)");
  ASSERT_TRUE(service);
  auto stub = collector::ProfilesService::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  for (int i = 0; i < 3; ++i) {
    grpc::ClientContext ctx;
    otlp::Response resp;
    auto req = testing::makeRequest("checkout", {testing::makeProfile(4)});
    ASSERT_TRUE(stub->Export(&ctx, req, &resp).ok());
  }
  service->shutdown();
  auto a = testing::readOtlpProtoFile(dir.file("a.bin"));
  auto b = testing::readOtlpProtoFile(dir.file("b.bin"));
  ASSERT_EQ(a.size(), 3u);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(a[0].resource_profiles(0).resource().attributes_size(), 2);  // service.name + tier
  EXPECT_EQ(b[0].resource_profiles(0).resource().attributes_size(), 1);  // untouched
  EXPECT_EQ(b[2].resource_profiles(0).scope_profiles(0).profiles(0).samples_size(), 4);
  EXPECT_EQ(service->metrics().value("proflow_connector_accepted_batches_total", {{"connector", "forward"}}), 3);
  EXPECT_EQ(service->metrics().value("proflow_connector_sent_batches_total", {{"connector", "forward"}}), 6);
}

}  // namespace
}  // namespace proflow
