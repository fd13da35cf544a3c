// Through the daemon: OTLP/gRPC receiver -> resource processor -> file exporter.
#include <grpcpp/grpcpp.h>

#include <utility>

#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/otlp_files.h"
#include "tests/support/pipeline_output.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;

TEST(ResourceProcessorE2E, EditsResourcesBetweenReceiverAndExporter) {
  testing::TempDir dir;
  int port = testing::freePort();
  auto service = testing::startService(R"(
receivers:
  otlp: { protocols: { grpc: { endpoint: "127.0.0.1:)" + std::to_string(port) + R"(" } } }
processors:
  resource:
    attributes:
      - { key: deployment.environment, value: prod, action: insert }
      - { key: service.name, action: hash }
exporters:
  file: { path: ")" + dir.file("out.bin") + R"(", format: otlp_proto }
service:
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles: { receivers: [otlp], processors: [resource], exporters: [file] }
)");
  ASSERT_TRUE(service);
  auto stub = collector::ProfilesService::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  otlp::Response resp;
  auto req = testing::makeRequest("checkout", {testing::makeProfile(5)});
  ASSERT_TRUE(stub->Export(&ctx, req, &resp).ok());
  service->shutdown();
  auto written = testing::readOtlpProtoFile(dir.file("out.bin"));
  ASSERT_EQ(written.size(), 1u);
  const auto& attrs = written[0].resource_profiles(0).resource().attributes();
  ASSERT_EQ(attrs.size(), 2);
  EXPECT_EQ(attrs[0].key(), "service.name");
  EXPECT_EQ(attrs[0].value().string_value().size(), 64u);  // SHA-256 hex
  EXPECT_EQ(attrs[1].key(), "deployment.environment");
  EXPECT_EQ(attrs[1].value().string_value(), "prod");
  // Samples pass through untouched.
  EXPECT_EQ(written[0].resource_profiles(0).scope_profiles(0).profiles(0).samples_size(), 5);
  EXPECT_EQ(service->metrics().value("proflow_processor_resource_changed_resources_total",
                                     {{"processor", "resource"}, {"pipeline", "profiles"}}),
            1);
}

// What the processor hashes or deletes on a resource attribute given by reference must not stay in
// the exported string table.
TEST(ResourceProcessorE2E, HashedAndDeletedValuesAreNotExported) {
  auto req = testing::makeRequest("checkout", {testing::makeProfile(3)});
  for (const auto& [key, value] : {std::pair{"user.email", "alice@secret.example"}, {"db.password", "pw-SECRET-9"}}) {
    auto* kv = req.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
    kv->set_key(key);
    kv->mutable_value()->set_string_value(value);
  }
  testing::referenceResourceAttributes(&req);
  const std::string bytes = testing::exportedBytes(R"(
  resource:
    attributes:
      - { key: user.email, action: hash }
      - { key: db.password, action: delete })",
                                                   "resource", req);
  ASSERT_FALSE(bytes.empty());
  EXPECT_EQ(bytes.find("alice@secret.example"), std::string::npos);
  EXPECT_EQ(bytes.find("pw-SECRET-9"), std::string::npos);
  EXPECT_NE(bytes.find("user.email"), std::string::npos) << "the hashed key stays";
}

}  // namespace
}  // namespace proflow
