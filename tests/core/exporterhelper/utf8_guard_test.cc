// The OTLP senders' last check: a batch holding strings that are not UTF-8 (which a peer's protobuf
// parser refuses, the whole request with them) is repaired before it is encoded, over gRPC and HTTP
// alike, and what was repaired is counted. The peer here is proflow's own OTLP receiver, which
// refuses invalid UTF-8 as every protobuf-based server does.
#include <gtest/gtest.h>

#include "cmd/proflow/builtins.h"
#include "core/config/service_config.h"
#include "core/flat/flat_attributes.h"
#include "core/service/service.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/fake_components.h"
#include "tests/support/flat_request.h"
#include "tests/support/otlp_files.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

// Built-ins plus the test's fake receiver, through which a test pushes a batch as it is.
std::unique_ptr<Service> startWithFakeReceiver(const std::string& yaml) {
  Registry registry;
  EXPECT_TRUE(registerBuiltins(registry).isOk());
  testing::registerFakes(registry);
  config::ServiceConfig cfg;
  std::string errors;
  EXPECT_TRUE(config::loadServiceConfigText(yaml, "test.yaml", registry, &cfg, &errors).isOk()) << errors;
  auto service = std::make_unique<Service>(std::move(cfg));
  EXPECT_TRUE(service->start().isOk());
  return service;
}

// A batch whose service.name (a resource attribute) and one function name are not UTF-8, as a
// component that wrote raw bytes would leave them.
Batch batchWithInvalidText() {
  Batch batch = testing::batchOf(testing::makeRequest("checkout", {testing::makeProfile(4)}));
  flat::Batch& b = batch.mutableData();
  for (flat::KeyValue& kv : b.key_values)
    if (flat::keyOf(b, kv) == "service.name") kv.value.bytes = b.addBytes("check\xFFout");
  for (flat::Bytes& s : b.strings)
    if (b.view(s) == "memcpy") s = b.addBytes("mem\xC3py");
  return batch;
}

TEST(OtlpSendersUtf8, InvalidStringsAreRepairedBeforeSendingAndCounted) {
  testing::TempDir dir;
  const int grpc_port = testing::freePort(), http_port = testing::freePort();
  auto gateway = testing::startService(R"(
receivers:
  otlp:
    protocols:
      grpc: { endpoint: "127.0.0.1:)" + std::to_string(grpc_port) + R"(" }
      http: { endpoint: "127.0.0.1:)" + std::to_string(http_port) + R"(" }
exporters: { file: { path: ")" + dir.file("out.bin") + R"(", format: otlp_proto } }
service:
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines: { profiles: { receivers: [otlp], exporters: [file] } }
)");
  ASSERT_TRUE(gateway);
  auto agent = startWithFakeReceiver(R"(
receivers: { fake: {} }
exporters:
  otlp: { endpoint: "127.0.0.1:)" + std::to_string(grpc_port) + R"(", tls: { insecure: true } }
  otlphttp: { endpoint: "http://127.0.0.1:)" + std::to_string(http_port) + R"(" }
service:
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines: { profiles: { receivers: [fake], exporters: [otlp, otlphttp] } }
)");
  ASSERT_TRUE(agent);
  ASSERT_TRUE(testing::FakeReceiver::find("fake")->push(batchWithInvalidText()).isOk());
  agent->shutdown();  // drains both queues into the gateway
  gateway->shutdown();

  const auto written = testing::readOtlpProtoFile(dir.file("out.bin"));
  ASSERT_EQ(written.size(), 2u) << "one request from each exporter";
  for (const auto& request : written) {
    EXPECT_EQ(testing::serviceName(request, 0), "check\uFFFDout");
    bool repaired_function = false;
    for (const auto& s : request.dictionary().string_table()) repaired_function |= s == "mem\uFFFDpy";
    EXPECT_TRUE(repaired_function);
  }
  for (const char* exporter : {"otlp", "otlphttp"}) {
    EXPECT_EQ(agent->metrics().value("proflow_exporter_invalid_utf8_repaired_total", {{"exporter", exporter}}), 2)
        << exporter;
    EXPECT_EQ(agent->metrics().value("proflow_exporter_sent_batches_total", {{"exporter", exporter}}), 1) << exporter;
  }
}

}  // namespace
}  // namespace proflow
