// Through the daemon: OTLP/gRPC receiver -> attributes processor -> file exporter.
#include <gmock/gmock.h>
#include <grpcpp/grpcpp.h>

#include "core/attributes/actions.h"
#include "tests/support/dictionary_builder.h"
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

TEST(AttributesProcessorE2E, EditsSamplesOfTheSelectedProfilesOnly) {
  testing::TempDir dir;
  int port = testing::freePort();
  auto service = testing::startService(R"(
receivers:
  otlp: { protocols: { grpc: { endpoint: "127.0.0.1:)" + std::to_string(port) + R"(" } } }
processors:
  attributes:
    include: { sample_types: [cpu], services: [checkout] }
    actions:
      - { key: thread.name, action: delete }
      - { key: team, action: insert, value: payments }
exporters:
  file: { path: ")" + dir.file("out.bin") + R"(", format: otlp_proto }
service:
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles: { receivers: [otlp], processors: [attributes], exporters: [file] }
)");
  ASSERT_TRUE(service);
  testing::ProfileSpec alloc = testing::makeProfile(2, 1);
  alloc.sample_type = "alloc_space";
  auto req = testing::makeRequest("checkout", {testing::makeProfile(2), alloc});
  DictionaryBuilder b(req.mutable_dictionary());
  int32_t thread = b.stringAttribute("thread.name", "main");
  for (auto& p : *req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles())
    for (auto& s : *p.mutable_samples()) s.add_attribute_indices(thread);

  auto stub = collector::ProfilesService::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  otlp::Response resp;
  ASSERT_TRUE(stub->Export(&ctx, req, &resp).ok());
  service->shutdown();
  auto written = testing::readOtlpProtoFile(dir.file("out.bin"));
  ASSERT_EQ(written.size(), 1u);
  const auto& d = written[0].dictionary();
  const auto& profiles = written[0].resource_profiles(0).scope_profiles(0).profiles();
  auto keyOf = [&](int32_t i) { return std::string(dictString(d, d.attribute_table(i).key_strindex())); };
  for (const auto& s : profiles[0].samples()) {
    ASSERT_EQ(s.attribute_indices_size(), 1);
    EXPECT_EQ(keyOf(s.attribute_indices(0)), "team");
  }
  for (const auto& s : profiles[1].samples()) {
    ASSERT_EQ(s.attribute_indices_size(), 1);
    EXPECT_EQ(keyOf(s.attribute_indices(0)), "thread.name");
  }
  EXPECT_THAT(testing::dictionaryProblems(written[0]), ::testing::IsEmpty());
  EXPECT_EQ(service->metrics().value("proflow_processor_attributes_changed_samples_total",
                                     {{"processor", "attributes"}, {"pipeline", "profiles"}}),
            2);
}

// A hashed value's original entry (inline in the attribute table, or a string the entry references)
// must not be sent: only the hash may leave.
TEST(AttributesProcessorE2E, HashLeavesNoTraceOfTheOriginalInTheExport) {
  auto req = testing::makeRequest("checkout", {testing::makeProfile(3)});
  DictionaryBuilder b(req.mutable_dictionary());
  const int32_t email = b.stringAttribute("user.email", "alice@secret.example");
  otlp::KeyValueAndUnit token;
  token.set_key_strindex(b.string("session.token"));
  token.mutable_value()->set_string_value_strindex(b.string("tok-SECRET-42"));
  const int32_t token_index = b.attribute(token);
  for (auto& s : *req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->mutable_samples()) {
    s.add_attribute_indices(email);
    s.add_attribute_indices(token_index);
  }
  const std::string bytes = testing::exportedBytes(R"(
  attributes:
    actions:
      - { key: user.email, action: hash }
      - { key: session.token, action: hash })",
                                                   "attributes", req);
  ASSERT_FALSE(bytes.empty());
  EXPECT_NE(bytes.find(attributes::sha256Hex("alice@secret.example")), std::string::npos) << "the hash is sent";
  EXPECT_EQ(bytes.find("alice@secret.example"), std::string::npos);
  EXPECT_EQ(bytes.find("tok-SECRET-42"), std::string::npos);
  EXPECT_NE(bytes.find("user.email"), std::string::npos) << "the key stays";
}

}  // namespace
}  // namespace proflow
