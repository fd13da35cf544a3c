#include "tests/brokers/broker_scenario.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "tests/brokers/counting_sink.h"
#include "tests/e2e/otlp_client.h"
#include "tests/support/daemon.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"

namespace proflow::testing {
namespace {

using namespace std::chrono_literals;

std::string writeFile(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  FILE* f = fopen(path.c_str(), "w");
  fwrite(text.data(), 1, text.size(), f);
  fclose(f);
  return path;
}

std::string telemetry(int metrics) {
  return "service:\n  telemetry: { metrics: { address: 127.0.0.1:" + std::to_string(metrics) + " } }\n";
}

std::string agentConfig(const BrokerScenario& s, int grpc, int metrics) {
  // No sending queue: the client's acknowledgement waits for the broker's.
  return "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:" + std::to_string(grpc) + " } } } }\n" +
         "exporters:\n  " + s.type + ":\n" + s.exporter_yaml +
         "    timeout: 2s\n    sending_queue: { enabled: false }\n" +
         "    retry_on_failure: { initial_interval: 100ms, max_interval: 500ms, max_elapsed_time: 5s }\n" +
         telemetry(metrics) + "  pipelines: { profiles: { receivers: [otlp], exporters: [" + s.type + "] } }\n";
}

std::string gatewayConfig(const BrokerScenario& s, int sink, int metrics) {
  // No sending queue: the broker message is settled only once the sink has the data.
  return "receivers:\n  " + s.type + ":\n" + s.receiver_yaml + "exporters:\n  otlp:\n    endpoint: 127.0.0.1:" +
         std::to_string(sink) + "\n    tls: { insecure: true }\n    timeout: 1s\n    sending_queue: { enabled: false }\n" +
         "    retry_on_failure: { initial_interval: 100ms, max_interval: 200ms, max_elapsed_time: 500ms }\n" +
         telemetry(metrics) + "  pipelines: { profiles: { receivers: [" + s.type + "], exporters: [otlp] } }\n";
}

}  // namespace

double ScenarioResult::gatewayMetric(const std::string& name) const {
  double sum = 0;
  std::istringstream in(gateway_metrics);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(name, 0) == 0 && (line[name.size()] == '{' || line[name.size()] == ' '))
      sum += std::stod(line.substr(line.rfind(' ') + 1));
  return sum;
}

ScenarioResult runBrokerScenario(const BrokerScenario& s, const std::string& dir) {
  ScenarioResult result;
  CountingSink sink(freePort());
  if (!sink.start()) {
    ADD_FAILURE() << "sink did not start";
    return result;
  }
  const int agent_grpc = freePort(), agent_metrics = freePort();
  const int gw_metrics[2] = {freePort(), freePort()};
  std::string gw_config[2];
  std::unique_ptr<Daemon> gateways[2];
  for (int g = 0; g < 2; ++g) {
    gw_config[g] = writeFile(dir, "gateway" + std::to_string(g) + ".yaml", gatewayConfig(s, sink.port(), gw_metrics[g]));
    gateways[g] = std::make_unique<Daemon>(std::vector<std::string>{"--config", gw_config[g]},
                                           dir + "/gateway" + std::to_string(g) + ".log");
  }
  for (int g = 0; g < 2; ++g)
    if (!gateways[g]->waitHealthy(gw_metrics[g])) {
      ADD_FAILURE() << "gateway " << g << " did not start:\n" << gateways[g]->log();
      return result;
    }
  auto metric = [](int port, const std::string& name) {
    ScenarioResult probe;
    httpGet(port, "/metrics", &probe.gateway_metrics);
    return probe.gatewayMetric(name);
  };
  auto ready = [&](int g) {
    const bool ok = s.ready_metric.empty() || waitFor([&] { return metric(gw_metrics[g], s.ready_metric) > 0; }, 60s);
    EXPECT_TRUE(ok) << "gateway " << g << " never reported " << s.ready_metric << " > 0:\n" << gateways[g]->log();
    return ok;
  };
  if (!ready(0) || !ready(1)) return result;
  Daemon agent({"--config", writeFile(dir, "agent.yaml", agentConfig(s, agent_grpc, agent_metrics))},
               dir + "/agent.log");
  if (!agent.waitHealthy(agent_metrics)) {
    ADD_FAILURE() << "agent did not start:\n" << agent.log();
    return result;
  }

  std::mutex mu;
  std::set<std::string> acknowledged;
  std::atomic<int> sent{0};
  std::atomic<bool> sink_down{false};
  std::thread client([&] {
    for (int i = 0; i < s.profiles; ++i) {
      if (i == s.profiles / 2) waitFor([&] { return sink_down.load(); }, 120s);
      const std::string id = "p-" + std::to_string(i);
      auto request = makeRequest(id, {makeProfile(3, i)});
      if (exportTo(agent_grpc, request, 10s).ok()) {
        std::lock_guard lock(mu);
        acknowledged.insert(id);
      }
      ++sent;
      std::this_thread::sleep_for(std::chrono::milliseconds(s.send_interval_ms));
    }
  });
  auto reached = [&](int n) { return waitFor([&] { return sent.load() >= n; }, 120s); };

  std::string killed_logs, killed_metrics;
  auto killAndRestart = [&](int g) {
    std::string text;
    httpGet(gw_metrics[g], "/metrics", &text);  // what it counted before it died
    killed_metrics += text;
    ::kill(gateways[g]->pid(), SIGKILL);
    gateways[g]->wait();
    killed_logs += "--- gateway" + std::to_string(g) + " (killed)\n" + gateways[g]->log() + "\n";
    std::this_thread::sleep_for(500ms);
    gateways[g] = std::make_unique<Daemon>(std::vector<std::string>{"--config", gw_config[g]},
                                           dir + "/gateway" + std::to_string(g) + "-restarted.log");
    EXPECT_TRUE(gateways[g]->waitHealthy(gw_metrics[g])) << gateways[g]->log();
  };
  // A gateway dies mid-stream with whatever it had fetched, and comes back.
  EXPECT_TRUE(reached(s.profiles / 4));
  killAndRestart(0);
  ready(0);

  // The sink goes away for a while: the gateways must hold back, not drop. Meanwhile the other
  // gateway dies while it holds data it could not deliver.
  EXPECT_TRUE(reached(s.profiles / 2));
  auto refusals = [&] {
    return s.refusal_metric.empty() ? 0.0 : metric(gw_metrics[0], s.refusal_metric) + metric(gw_metrics[1], s.refusal_metric);
  };
  const double refused_before = refusals();
  sink.stop();
  const auto outage_started = std::chrono::steady_clock::now();
  sink_down = true;
  if (!s.refusal_metric.empty())
    result.outage_refused = waitFor([&] { return refusals() > refused_before; }, 60s);
  std::this_thread::sleep_until(outage_started + std::chrono::milliseconds(s.sink_down_ms / 2));
  killAndRestart(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(s.sink_down_ms / 2));
  EXPECT_TRUE(sink.start());

  client.join();
  result.acknowledged = acknowledged.size();
  waitFor([&] { return sink.missing(acknowledged).empty(); }, 120s);
  result.missing = sink.missing(acknowledged);
  for (const auto& [service, times] : sink.arrivals()) {
    if (acknowledged.count(service)) ++result.arrived;
    result.duplicates += static_cast<size_t>(times - 1);
  }
  result.logs = "--- agent\n" + agent.log() + "\n--- gateway0 (restarted)\n" + gateways[0]->log() +
                "\n--- gateway1 (restarted)\n" + gateways[1]->log() + "\n" + killed_logs;
  result.gateway_metrics = killed_metrics;
  for (int g = 0; g < 2; ++g) {
    std::string text;
    httpGet(gw_metrics[g], "/metrics", &text);
    result.gateway_metrics += text;
  }
  EXPECT_EQ(agent.terminate(), 0);
  for (auto& g : gateways) EXPECT_EQ(g->terminate(), 0);
  return result;
}

}  // namespace proflow::testing
