// `proflow health`: what container health checks and exec probes run against a running daemon.
#include <gtest/gtest.h>

#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tls_test_server.h"

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

// An endpoint with `tls` is asked over HTTPS: from the config, trusting the certificate the daemon
// presents; from --address https://..., trusting --ca-file. The certificate names localhost only, so
// verifying the loopback address as localhost is what lets it pass; an untrusted one fails.
TEST(HealthCommand, AsksATlsEndpointOverHttps) {
  testing::TempDir dir;
  const std::string cert = dir.file("cert.pem"), key = dir.file("key.pem");
  ASSERT_TRUE(testing::makeSelfSignedCert(cert, key));
  const int metrics = testing::freePort();
  const std::string port = std::to_string(metrics);
  const std::string cfg = dir.write(
      "c.yaml", "receivers: { otlp: { protocols: { http: { endpoint: 127.0.0.1:0 } } } }\n"
                "exporters: { debug: {} }\n"
                "service:\n  telemetry: { metrics: { address: \"127.0.0.1:" + port + "\", tls: { cert_file: " + cert +
                ", key_file: " + key + " } } }\n"
                "  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }\n");
  testing::Daemon d({"--config", cfg}, (dir.path() / "daemon.log").string());
  std::string out;
  ASSERT_TRUE(testing::waitFor([&] { return runCommand({proflowBinary(), "health", "--config", cfg}, &out) == 0; }))
      << out << d.log();
  EXPECT_NE(out.find("https://127.0.0.1:" + port + "/healthz: 200 ok"), std::string::npos) << out;
  EXPECT_EQ(runCommand({proflowBinary(), "health", "--address", "https://127.0.0.1:" + port, "--ca-file", cert}, &out),
            0)
      << out;
  // Not trusted (the system store does not know a self-signed certificate), the wrong name, plain text.
  EXPECT_EQ(runCommand({proflowBinary(), "health", "--address", "https://127.0.0.1:" + port}, &out), 1) << out;
  EXPECT_EQ(runCommand({proflowBinary(), "health", "--config", cfg, "--server-name", "proflow.example"}, &out), 1)
      << out;
  EXPECT_EQ(runCommand({proflowBinary(), "health", "--address", "127.0.0.1:" + port}, &out), 1) << out;
  EXPECT_EQ(d.terminate(), 0) << d.log();
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
