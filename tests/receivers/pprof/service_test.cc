// The receiver inside a whole in-process Service built from YAML (its factory registered next to
// the test fakes): config decoding, start, the graph's standard counters, shutdown.
#include <gtest/gtest.h>

#include "core/config/service_config.h"
#include "core/service/service.h"
#include "receivers/pprof/factory.h"
#include "tests/receivers/pprof/go_app.h"
#include "tests/support/daemon.h"
#include "tests/support/fake_components.h"
#include "tests/support/temp_dir.h"

namespace proflow::receivers::pprof {
namespace {

TEST(PprofServiceTest, PushedGoProfileReachesTheExporterAndIsCounted) {
  std::string error, out;
  const std::string bin = testing::pprofAppBinary(&error);
  ASSERT_FALSE(bin.empty()) << error;
  testing::TempDir dir;
  ASSERT_EQ(testing::runCommand({bin, "-write", dir.path().string()}, &out), 0) << out;

  Registry registry;
  ASSERT_TRUE(registry.add(makePprofReceiverFactory()).isOk());
  testing::registerFakes(registry);
  const int port = testing::freePort();
  const std::string yaml = R"(
receivers:
  pprof:
    endpoint: 127.0.0.1:)" + std::to_string(port) + R"(
    attributes: { deployment.environment: test }
exporters:
  fake: {}
service:
  shutdown_timeout: 2s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles: { receivers: [pprof], exporters: [fake] }
)";
  config::ServiceConfig cfg;
  std::string errors;
  ASSERT_TRUE(config::loadServiceConfigText(yaml, "test.yaml", registry, &cfg, &errors).isOk()) << errors;
  Service service(std::move(cfg));
  ASSERT_TRUE(service.start().isOk());

  ASSERT_EQ(testing::runCommand({"curl", "-sSf", "--data-binary", "@" + dir.file("heap.pb.gz"),
                                 "http://127.0.0.1:" + std::to_string(port) + "/v1/pprof?service.name=svc"},
                                &out),
            0)
      << out;
  ASSERT_NE(testing::runCommand({"curl", "-sSf", "--data-binary", "not pprof",
                                 "http://127.0.0.1:" + std::to_string(port) + "/v1/pprof"},
                                &out),
            0);
  auto* exporter = testing::FakeExporter::find("fake");
  ASSERT_NE(exporter, nullptr);
  ASSERT_EQ(exporter->received().size(), 1u);
  EXPECT_EQ(exporter->received()[0].counts().profiles, 4u);  // heap: four sample types
  const telemetry::Labels rl = {{"receiver", "pprof"}};
  EXPECT_EQ(service.metrics().value("proflow_receiver_accepted_profiles_total", rl), 4);
  EXPECT_EQ(service.metrics().value("proflow_receiver_received_batches_total", rl), 2);
  EXPECT_EQ(service.metrics().value("proflow_receiver_refused_batches_total", rl), 1);
  service.shutdown();
}

}  // namespace
}  // namespace proflow::receivers::pprof
