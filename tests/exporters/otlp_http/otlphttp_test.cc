// proflow's otlphttp exporter into proflow's OTLP/HTTP receiver, for each encoding and compression.
#include <google/protobuf/util/message_differencer.h>

#include "core/compression/compression.h"
#include "tests/support/otlp_json_protobuf.h"
#include "exporters/otlp_http/http_sender.h"
#include "tests/e2e/otlp_client.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/otlp_files.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"
#include "tests/support/flat_request.h"

namespace proflow {
namespace {

using google::protobuf::util::MessageDifferencer;

otlp::Request sample() {
  testing::ProfileSpec p;
  p.samples = {{{"a", "b", "main"}, 11}, {{"c", "main"}, 4}};
  return testing::makeRequest("billing", {p, testing::makeProfile(30, 2)});
}

TEST(OtlpHttpEncode, ProducesTheDeclaredEncodingAndCompression) {
  exporters::otlphttp::OtlpHttpExporterConfig cfg;
  cfg.endpoint = "http://127.0.0.1:1";
  for (const char* enc : {"proto", "json"})
    for (const char* comp : {"none", "gzip", "zstd"}) {
      cfg.encoding = enc;
      cfg.compression = comp;
      exporters::otlphttp::EncodedRequest out;
      ASSERT_TRUE(exporters::otlphttp::encodeRequest(cfg, ::proflow::testing::batchOf(sample()), &out).isOk());
      std::string raw;
      auto codec = *compression::codecFromName(comp);
      ASSERT_TRUE(compression::decompress(codec, out.body, raw, {}).isOk());
      otlp::Request back;
      if (std::string(enc) == "json") ASSERT_TRUE(otlp_json_pb::parseOtlpJson(raw, &back).isOk());
      else ASSERT_TRUE(back.ParseFromString(raw));
      EXPECT_TRUE(MessageDifferencer::Equals(back, sample())) << enc << "/" << comp;
      EXPECT_EQ(net::headerValue(out.headers, "content-type"), std::string(enc) == "json" ? "application/json" : "application/x-protobuf");
    }
  cfg.max_request_size = config::ByteSize(10);
  exporters::otlphttp::EncodedRequest out;
  EXPECT_EQ(exporters::otlphttp::encodeRequest(cfg, ::proflow::testing::batchOf(sample()), &out).code(), StatusCode::kPayloadTooLarge);
}

class OtlpHttpChainTest : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(OtlpHttpChainTest, AgentToGatewayOverHttp) {
  testing::TempDir dir;
  const int gw_http = testing::freePort(), ag_grpc = testing::freePort();
  auto gateway = testing::startService(R"(
receivers: { otlp: { protocols: { http: { endpoint: 127.0.0.1:)" + std::to_string(gw_http) + R"( } } } }
exporters: { file: { path: )" + dir.file("out.bin") + R"(, format: otlp_proto } }
service:
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines: { profiles: { receivers: [otlp], exporters: [file] } }
)");
  ASSERT_TRUE(gateway);
  auto agent = testing::startService(R"(
receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:)" + std::to_string(ag_grpc) + R"( } } } }
exporters:
  otlphttp:
    endpoint: http://127.0.0.1:)" + std::to_string(gw_http) + R"(
    encoding: )" + GetParam().first + R"(
    compression: )" + GetParam().second + R"(
    headers: { x-tenant: acme }
service:
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines: { profiles: { receivers: [otlp], exporters: [otlphttp] } }
)");
  ASSERT_TRUE(agent);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(testing::exportTo(ag_grpc, sample()).ok());
  agent->shutdown();  // drains the queue into the gateway
  gateway->shutdown();
  auto written = testing::readOtlpProtoFile(dir.file("out.bin"));
  ASSERT_EQ(written.size(), 3u);
  for (const auto& w : written) EXPECT_TRUE(MessageDifferencer::Equals(w, sample()));
  EXPECT_EQ(agent->metrics().value("proflow_exporter_sent_batches_total", {{"exporter", "otlphttp"}}), 3);
  EXPECT_GT(agent->metrics().value("proflow_exporter_bytes_out_total", {{"exporter", "otlphttp"}}), 0);
}

INSTANTIATE_TEST_SUITE_P(Encodings, OtlpHttpChainTest,
                         ::testing::Values(std::make_pair("proto", "gzip"), std::make_pair("proto", "zstd"),
                                           std::make_pair("json", "none"), std::make_pair("json", "gzip")));

}  // namespace
}  // namespace proflow
