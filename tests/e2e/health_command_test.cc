// `proflow health`: what container health checks and exec probes run against a running daemon.
#include <gtest/gtest.h>

#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using testing::proflowBinary;
using testing::runCommand;

TEST(HealthCommand, AnswersForARunningDaemonAndFailsOnceItIsGone) {
  testing::TempDir dir;
  const int metrics = testing::freePort();
  const std::string cfg = dir.write(
      "c.yaml", "receivers: { otlp: { protocols: { http: { endpoint: 127.0.0.1:0 } } } }\n"
                "exporters: { debug: {} }\n"
                "service:\n  telemetry: { metrics: { address: \"0.0.0.0:" + std::to_string(metrics) + "\" } }\n"
                "  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }\n");
  testing::Daemon d({"--config", cfg}, (dir.path() / "daemon.log").string());
  ASSERT_TRUE(d.waitHealthy(metrics)) << d.log();

  std::string out;
  EXPECT_EQ(runCommand({proflowBinary(), "health", "--address", "127.0.0.1:" + std::to_string(metrics)}, &out), 0)
      << out;
  EXPECT_NE(out.find("200 ok"), std::string::npos) << out;
  // From the config: its wildcard bind is asked on the loopback address.
  EXPECT_EQ(runCommand({proflowBinary(), "health", "--config", cfg}, &out), 0) << out;
  EXPECT_NE(out.find("http://127.0.0.1:" + std::to_string(metrics) + "/healthz"), std::string::npos) << out;

  ASSERT_EQ(d.terminate(), 0) << d.log();
  EXPECT_EQ(runCommand({proflowBinary(), "health", "--address", "127.0.0.1:" + std::to_string(metrics)}, &out), 1)
      << out;
  EXPECT_NE(out.find("proflow health:"), std::string::npos) << out;
}

TEST(HealthCommand, SaysSoWhenTheConfigTurnsTelemetryOff) {
  testing::TempDir dir;
  const std::string cfg = dir.write(
      "c.yaml", "receivers: { otlp: { protocols: { http: { endpoint: 127.0.0.1:0 } } } }\n"
                "exporters: { debug: {} }\n"
                "service:\n  telemetry: { metrics: { address: none } }\n"
                "  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }\n");
  std::string out;
  EXPECT_EQ(runCommand({proflowBinary(), "health", "--config", cfg}, &out), 1) << out;
  EXPECT_NE(out.find("telemetry endpoint is turned off"), std::string::npos) << out;
}

}  // namespace
}  // namespace proflow
