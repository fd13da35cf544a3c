// Two real proflow processes chained as agent -> gateway over OTLP/gRPC.
#include <gtest/gtest.h>

#include <csignal>
#include <set>
#include <thread>

#include "tests/e2e/otlp_client.h"
#include "tests/support/daemon.h"
#include "tests/support/otlp_files.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;
using testing::waitFor;

struct Ports {
  int grpc = testing::freePort();
  int metrics = testing::freePort();
};

std::string gatewayConfig(const Ports& p, const std::string& out) {
  return "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:" + std::to_string(p.grpc) + " } } } }\n" +
         "exporters: { file: { path: " + out + ", format: otlp_proto, flush_interval: 0 } }\n" +
         "service:\n  telemetry: { metrics: { address: 127.0.0.1:" + std::to_string(p.metrics) + " } }\n" +
         "  pipelines: { profiles: { receivers: [otlp], exporters: [file] } }\n";
}

std::string agentConfig(const Ports& p, int gateway_port, const std::string& shutdown_timeout = "15s",
                        int queue_size = 1000, const std::string& queue_directory = "") {
  return "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:" + std::to_string(p.grpc) + " } } } }\n" +
         "exporters:\n  otlp:\n    endpoint: 127.0.0.1:" + std::to_string(gateway_port) +
         "\n    tls: { insecure: true }\n    timeout: 2s\n    sending_queue: { num_consumers: 1, queue_size: " +
         std::to_string(queue_size) + (queue_directory.empty() ? "" : ", directory: " + queue_directory) + " }\n" +
         "    retry_on_failure: { initial_interval: 100ms, max_interval: 300ms, max_elapsed_time: 60s }\n" +
         "service:\n  shutdown_timeout: " + shutdown_timeout +
         "\n  telemetry: { metrics: { address: 127.0.0.1:" + std::to_string(p.metrics) + " } }\n" +
         "  pipelines: { profiles: { receivers: [otlp], exporters: [otlp] } }\n";
}

otlp::Request request(int i) {
  return testing::makeRequest("svc-" + std::to_string(i), {testing::makeProfile(5 + i, i)});
}

size_t profilesIn(const std::string& path) {
  return testing::allProfiles(testing::readOtlpProtoFile(path)).size();
}

// While the gateway may still be writing: a record not yet whole is not counted.
size_t profilesSoFar(const std::string& path) {
  return testing::allProfiles(testing::readOtlpProtoFileSoFar(path)).size();
}

TEST(Daemon, AgentForwardsToGatewayAndBothStopCleanly) {
  testing::TempDir dir;
  Ports gw, ag;
  const std::string out = dir.file("gateway.bin");
  testing::Daemon gateway({"--config", dir.write("gw.yaml", gatewayConfig(gw, out))}, dir.file("gw.log"));
  ASSERT_TRUE(gateway.waitHealthy(gw.metrics)) << gateway.log();
  testing::Daemon agent({"--config", dir.write("ag.yaml", agentConfig(ag, gw.grpc))}, dir.file("ag.log"));
  ASSERT_TRUE(agent.waitHealthy(ag.metrics)) << agent.log();

  for (int i = 0; i < 10; ++i) {
    grpc::Status s = testing::exportTo(ag.grpc, request(i));
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  ASSERT_TRUE(waitFor([&] { return profilesSoFar(out) == 10; })) << agent.log() << gateway.log();

  // The gateway may write the last batch before the agent's exporter has counted the answer.
  std::string metrics;
  const std::string sent = "proflow_exporter_sent_profiles_total{exporter=\"otlp\"} 10";
  EXPECT_TRUE(waitFor([&] {
    return testing::httpGet(ag.metrics, "/metrics", &metrics) == 200 && metrics.find(sent) != std::string::npos;
  })) << metrics;
  EXPECT_NE(metrics.find("proflow_process_resident_memory_bytes"), std::string::npos);

  EXPECT_EQ(agent.terminate(), 0) << agent.log();
  EXPECT_EQ(gateway.terminate(), 0) << gateway.log();
  // What the gateway wrote is what the agent was given, service by service.
  auto written = testing::readOtlpProtoFile(out);
  std::set<std::string> services;
  for (size_t r = 0; r < written.size(); ++r)
    for (int i = 0; i < written[r].resource_profiles_size(); ++i) services.insert(testing::serviceName(written[r], i));
  EXPECT_EQ(services.size(), 10u);
}

TEST(Daemon, RetriesUntilALateGatewayStartsAndDrainsOnSigterm) {
  testing::TempDir dir;
  Ports gw, ag;
  const std::string out = dir.file("gateway.bin");
  testing::Daemon agent({"--config", dir.write("ag.yaml", agentConfig(ag, gw.grpc))}, dir.file("ag.log"));
  ASSERT_TRUE(agent.waitHealthy(ag.metrics)) << agent.log();
  // The gateway is not there yet: the agent accepts (queues) and keeps retrying.
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(testing::exportTo(ag.grpc, request(i)).ok());
  std::this_thread::sleep_for(500ms);

  testing::Daemon gateway({"--config", dir.write("gw.yaml", gatewayConfig(gw, out))}, dir.file("gw.log"));
  ASSERT_TRUE(gateway.waitHealthy(gw.metrics)) << gateway.log();
  // SIGTERM right away: the agent must drain its retrying queue before exiting 0.
  EXPECT_EQ(agent.terminate(), 0) << agent.log();
  EXPECT_EQ(gateway.terminate(), 0) << gateway.log();
  EXPECT_EQ(profilesIn(out), 5u) << agent.log();
}

// A crash (SIGKILL) with the gateway down loses nothing that was acknowledged: the persistent queue
// resends it when the agent comes back.
TEST(Daemon, PersistentQueueResendsWhatACrashedAgentHadAcknowledged) {
  testing::TempDir dir;
  Ports gw, ag;
  const std::string out = dir.file("gateway.bin");
  const std::string config = dir.write("ag.yaml", agentConfig(ag, gw.grpc, "5s", 1000, dir.file("queue")));
  {
    testing::Daemon agent({"--config", config}, dir.file("ag1.log"));
    ASSERT_TRUE(agent.waitHealthy(ag.metrics)) << agent.log();
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(testing::exportTo(ag.grpc, request(i)).ok());
    ASSERT_EQ(::kill(agent.pid(), SIGKILL), 0);
    agent.wait();
  }
  testing::Daemon gateway({"--config", dir.write("gw.yaml", gatewayConfig(gw, out))}, dir.file("gw.log"));
  ASSERT_TRUE(gateway.waitHealthy(gw.metrics)) << gateway.log();
  testing::Daemon agent({"--config", config}, dir.file("ag2.log"));
  ASSERT_TRUE(agent.waitHealthy(ag.metrics)) << agent.log();
  EXPECT_TRUE(waitFor([&] { return profilesSoFar(out) == 5; })) << agent.log();
  EXPECT_NE(agent.log().find("resending 5 batches"), std::string::npos) << agent.log();
  EXPECT_EQ(agent.terminate(), 0) << agent.log();
  EXPECT_EQ(gateway.terminate(), 0) << gateway.log();
  std::set<std::string> services;
  for (const auto& r : testing::readOtlpProtoFile(out))
    for (int i = 0; i < r.resource_profiles_size(); ++i) services.insert(testing::serviceName(r, i));
  EXPECT_EQ(services, (std::set<std::string>{"svc-0", "svc-1", "svc-2", "svc-3", "svc-4"}));
}

TEST(Daemon, FullQueueRefusesAndEverythingAcknowledgedArrives) {
  testing::TempDir dir;
  Ports gw, ag;
  const std::string out = dir.file("gateway.bin");
  testing::Daemon agent({"--config", dir.write("ag.yaml", agentConfig(ag, gw.grpc, "15s", 2))}, dir.file("ag.log"));
  ASSERT_TRUE(agent.waitHealthy(ag.metrics)) << agent.log();
  size_t acknowledged = 0, refused = 0;
  for (int i = 0; i < 12; ++i) {
    grpc::Status s = testing::exportTo(ag.grpc, request(i));
    if (s.ok()) {
      ++acknowledged;
    } else {
      EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
      ++refused;
    }
  }
  EXPECT_GT(refused, 0u);
  EXPECT_GE(acknowledged, 2u);
  testing::Daemon gateway({"--config", dir.write("gw.yaml", gatewayConfig(gw, out))}, dir.file("gw.log"));
  ASSERT_TRUE(gateway.waitHealthy(gw.metrics)) << gateway.log();
  ASSERT_TRUE(waitFor([&] { return profilesSoFar(out) >= acknowledged; })) << agent.log();
  EXPECT_EQ(agent.terminate(), 0);
  EXPECT_EQ(gateway.terminate(), 0);
  EXPECT_EQ(profilesIn(out), acknowledged);
}

TEST(Daemon, WhatCannotBeDeliveredByTheDeadlineIsReportedNotSilentlyLost) {
  testing::TempDir dir;
  Ports ag;
  const int nowhere = testing::freePort();
  testing::Daemon agent({"--config", dir.write("ag.yaml", agentConfig(ag, nowhere, "1s"))}, dir.file("ag.log"));
  ASSERT_TRUE(agent.waitHealthy(ag.metrics)) << agent.log();
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(testing::exportTo(ag.grpc, request(i)).ok());
  EXPECT_EQ(agent.terminate(), 0) << agent.log();
  const std::string log = agent.log();
  // The batch in the retry loop is logged as dropped; the queued ones are counted at shutdown.
  EXPECT_NE(log.find("dropping batch"), std::string::npos) << log;
  EXPECT_NE(log.find("queued batches"), std::string::npos) << log;
}

}  // namespace
}  // namespace proflow
