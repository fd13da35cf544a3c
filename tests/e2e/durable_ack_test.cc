// "Acknowledged" survives a crash through a batch processor: an agent `otlp -> batch -> otlp` with a
// persistent sending queue, the gateway down, continuous load from clients that record which
// requests were acknowledged, kill -9 mid-load, restart with the gateway up: every acknowledged
// request arrives (each identified by a unique service.name).
#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <mutex>
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

std::string batchingAgentConfig(int grpc, int metrics, int gateway, const std::string& queue) {
  const std::string p = std::to_string(grpc), m = std::to_string(metrics), g = std::to_string(gateway);
  return "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:" + p + " } } } }\n" +
         // A long timeout and a large size: without waiting, acknowledged data would sit in memory.
         "processors: { batch: { timeout: 30s, send_batch_size: 100 } }\n" +
         "exporters:\n  otlp:\n    endpoint: 127.0.0.1:" + g + "\n    tls: { insecure: true }\n    timeout: 2s\n" +
         "    sending_queue: { num_consumers: 2, queue_size: 5000, directory: " + queue + " }\n" +
         "    retry_on_failure: { initial_interval: 100ms, max_interval: 300ms, max_elapsed_time: 0s }\n" +
         "service:\n  telemetry: { metrics: { address: 127.0.0.1:" + m + " } }\n" +
         "  pipelines: { profiles: { receivers: [otlp], processors: [batch], exporters: [otlp] } }\n";
}

std::string fileGatewayConfig(int grpc, int metrics, const std::string& out) {
  return "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:" + std::to_string(grpc) + " } } } }\n" +
         "exporters: { file: { path: " + out + ", format: otlp_proto, flush_interval: 0 } }\n" +
         "service:\n  telemetry: { metrics: { address: 127.0.0.1:" + std::to_string(metrics) + " } }\n" +
         "  pipelines: { profiles: { receivers: [otlp], exporters: [file] } }\n";
}

std::set<std::string> servicesIn(const std::string& path) {
  std::set<std::string> out;
  for (const auto& r : testing::readOtlpProtoFile(path))
    for (int i = 0; i < r.resource_profiles_size(); ++i) out.insert(testing::serviceName(r, i));
  return out;
}

TEST(DurableAcknowledgement, KillNineThroughABatchProcessorLosesNothingAcknowledged) {
  testing::TempDir dir;
  const int agent_grpc = testing::freePort(), agent_metrics = testing::freePort();
  const int gw_grpc = testing::freePort(), gw_metrics = testing::freePort();
  const std::string out = dir.file("gateway.bin");
  const std::string config =
      dir.write("agent.yaml", batchingAgentConfig(agent_grpc, agent_metrics, gw_grpc, dir.file("queue")));

  std::mutex mu;
  std::set<std::string> acknowledged;
  {
    testing::Daemon agent({"--config", config}, dir.file("agent1.log"));
    ASSERT_TRUE(agent.waitHealthy(agent_metrics)) << agent.log();
    std::atomic<bool> stop{false};
    std::atomic<int> next{0};
    std::vector<std::thread> clients;
    for (int c = 0; c < 4; ++c)
      clients.emplace_back([&] {
        while (!stop) {
          const std::string id = "req-" + std::to_string(next++);
          auto request = testing::makeRequest(id, {testing::makeProfile(3, static_cast<int>(id.size()))});
          if (testing::exportTo(agent_grpc, request, 5s).ok()) {
            std::lock_guard lock(mu);
            acknowledged.insert(id);
          }
        }
      });
    // Mid-load: clients keep sending while the agent dies.
    for (int i = 0; i < 2000; ++i) {
      {
        std::lock_guard lock(mu);
        if (acknowledged.size() >= 60) break;
      }
      std::this_thread::sleep_for(10ms);
    }
    ASSERT_EQ(::kill(agent.pid(), SIGKILL), 0);
    agent.wait();
    stop = true;
    for (auto& t : clients) t.join();
  }
  ASSERT_GE(acknowledged.size(), 60u);

  testing::Daemon gateway({"--config", dir.write("gw.yaml", fileGatewayConfig(gw_grpc, gw_metrics, out))},
                          dir.file("gw.log"));
  ASSERT_TRUE(gateway.waitHealthy(gw_metrics)) << gateway.log();
  testing::Daemon agent({"--config", config}, dir.file("agent2.log"));
  ASSERT_TRUE(agent.waitHealthy(agent_metrics)) << agent.log();
  std::set<std::string> missing = acknowledged;
  for (int i = 0; i < 600 && !missing.empty(); ++i) {
    for (const auto& s : servicesIn(out)) missing.erase(s);
    if (!missing.empty()) std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(missing.empty()) << missing.size() << " of " << acknowledged.size()
                               << " acknowledged requests never arrived, e.g. " << *missing.begin() << "\n"
                               << agent.log();
  EXPECT_EQ(agent.terminate(), 0) << agent.log();
  EXPECT_EQ(gateway.terminate(), 0) << gateway.log();
}

}  // namespace
}  // namespace proflow
