// Hot reload against the real daemon: SIGHUP, POST /-/reload and --watch-config each reload; an
// invalid config is refused (400, counted, logged with file:line) while the running pipelines carry
// on; and continuous load through a persistent queue survives 20 reloads without losing anything.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <mutex>
#include <thread>

#include "tests/support/daemon.h"
#include "tests/support/otlp_files.h"
#include "tests/support/profile_builder.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;
using testing::waitFor;

// Writes then renames, so a watcher never reads half a file.
void writeAtomically(const std::string& path, const std::string& text) {
  {
    std::ofstream out(path + ".tmp", std::ios::trunc);
    out << text;
  }
  std::filesystem::rename(path + ".tmp", path);
}

// The value of the series `name_and_labels` (exactly as rendered) on /metrics; -1 when absent.
double metric(int port, const std::string& name_and_labels) {
  std::string body;
  if (testing::httpGet(port, "/metrics", &body) != 200) return -1;
  const std::string key = "\n" + name_and_labels + " ";
  auto at = body.find(key);
  if (at == std::string::npos) return -1;
  return std::stod(body.substr(at + key.size()));
}

testing::RawResponse postProfiles(int port, int i) {
  std::string body;
  testing::makeRequest("svc-" + std::to_string(i), {testing::makeProfile(3, i)}).SerializeToString(&body);
  return testing::rawPost(port, "/v1development/profiles", {{"Content-Type", "application/x-protobuf"}}, body, 30s);
}

testing::RawResponse postReload(int metrics_port) { return testing::rawPost(metrics_port, "/-/reload", {}, "", 60s); }

std::string telemetry(int metrics) {
  return "  telemetry: { metrics: { address: 127.0.0.1:" + std::to_string(metrics) + " } }\n";
}

// otlp (HTTP) -> [processors] -> file
std::string fileConfig(int http, int metrics, const std::string& out, const std::string& processors) {
  return "receivers: { otlp: { protocols: { http: { endpoint: 127.0.0.1:" + std::to_string(http) + " } } } }\n" +
         "processors: { batch: { timeout: 50ms }, attributes: { actions: [{ key: team, value: a, action: insert }] } }\n" +
         "exporters: { file: { path: " + out + ", format: otlp_proto, flush_interval: 0 } }\n" +
         "service:\n" + telemetry(metrics) + "  pipelines: { profiles: { receivers: [otlp], processors: [" + processors +
         "], exporters: [file] } }\n";
}

TEST(Reload, SighupAndPostReloadApplyAndAnInvalidConfigIsRefusedWhileTheOldGraphServes) {
  testing::TempDir dir;
  const int http = testing::freePort(), metrics = testing::freePort();
  const std::string config = dir.write("proflow.yaml", fileConfig(http, metrics, dir.file("out.bin"), "batch"));
  testing::Daemon d({"--config", config}, dir.file("d.log"));
  ASSERT_TRUE(d.waitHealthy(metrics)) << d.log();
  ASSERT_EQ(postProfiles(http, 0).status, 200);

  // SIGHUP: the attributes processor joins the pipeline.
  writeAtomically(config, fileConfig(http, metrics, dir.file("out.bin"), "attributes, batch"));
  ASSERT_EQ(::kill(d.pid(), SIGHUP), 0);
  ASSERT_TRUE(waitFor([&] { return metric(metrics, "proflow_config_reload_successes_total") == 1; })) << d.log();
  ASSERT_EQ(postProfiles(http, 1).status, 200);
  EXPECT_TRUE(waitFor([&] {
    return metric(metrics, "proflow_processor_accepted_batches_total{processor=\"attributes\",pipeline=\"profiles\"}") == 1;
  })) << d.log();
  EXPECT_NE(d.log().find("reload (SIGHUP) applied: 3 kept, 0 changed, 1 added (processor/attributes@profiles), 0 removed"),
            std::string::npos)
      << d.log();

  // POST /-/reload: back to batch only; the answer says what changed.
  writeAtomically(config, fileConfig(http, metrics, dir.file("out.bin"), "batch"));
  auto r = postReload(metrics);
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find("1 removed (processor/attributes@profiles)"), std::string::npos) << r.body;

  // An invalid config: 400 with every error at file:line, counted, and the old graph still serves.
  std::string invalid = fileConfig(http, metrics, dir.file("out.bin"), "batch") + "extra_section: {}\n";
  invalid.replace(invalid.find("timeout: 50ms"), 13, "timeout: soon");
  writeAtomically(config, invalid);
  r = postReload(metrics);
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_NE(r.body.find("proflow.yaml:"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("extra_section"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("soon"), std::string::npos) << r.body;
  EXPECT_EQ(metric(metrics, "proflow_config_reload_failures_total"), 1);
  EXPECT_EQ(metric(metrics, "proflow_config_last_reload_success"), 0);
  EXPECT_EQ(metric(metrics, "proflow_config_reloads_total"), 3);
  EXPECT_NE(d.log().find("proflow.yaml:2:"), std::string::npos) << d.log();  // the log names file:line too
  EXPECT_NE(d.log().find("proflow.yaml:7:"), std::string::npos) << d.log();
  // A valid config that adds an extension needs a restart: refused the same way.
  writeAtomically(config, fileConfig(http, metrics, dir.file("out.bin"), "batch") +
                              "  extensions: [bearertokenauth]\nextensions: { bearertokenauth: { token: abc } }\n");
  r = postReload(metrics);
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_NE(r.body.find("extension/bearertokenauth added: extensions cannot change while running; restart to apply"),
            std::string::npos)
      << r.body;
  EXPECT_EQ(metric(metrics, "proflow_config_reload_failures_total"), 2);
  EXPECT_EQ(postProfiles(http, 2).status, 200);
  EXPECT_EQ(testing::httpGet(metrics, "/healthz"), 200);
  EXPECT_TRUE(waitFor([&] { return testing::allProfiles(testing::readOtlpProtoFileSoFar(dir.file("out.bin"))).size() == 3; }));
  EXPECT_EQ(d.terminate(), 0) << d.log();
  EXPECT_EQ(testing::allProfiles(testing::readOtlpProtoFile(dir.file("out.bin"))).size(), 3u);  // every record whole
}

TEST(Reload, WatchConfigReloadsWhenTheContentsChangeOnly) {
  testing::TempDir dir;
  const int http = testing::freePort(), metrics = testing::freePort();
  const std::string text = fileConfig(http, metrics, dir.file("out.bin"), "batch");
  const std::string config = dir.write("proflow.yaml", text);
  testing::Daemon d({"--config", config, "--watch-config=100ms"}, dir.file("d.log"));
  ASSERT_TRUE(d.waitHealthy(metrics)) << d.log();
  // Rewriting the same bytes (a new mtime) is no change.
  writeAtomically(config, text);
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(metric(metrics, "proflow_config_reloads_total"), 0);
  writeAtomically(config, fileConfig(http, metrics, dir.file("out.bin"), "attributes, batch"));
  EXPECT_TRUE(waitFor([&] { return metric(metrics, "proflow_config_reload_successes_total") == 1; })) << d.log();
  EXPECT_EQ(metric(metrics, "proflow_config_reloads_total"), 1);
  EXPECT_EQ(postProfiles(http, 0).status, 200);
  EXPECT_TRUE(waitFor([&] {
    return metric(metrics, "proflow_processor_accepted_batches_total{processor=\"attributes\",pipeline=\"profiles\"}") == 1;
  })) << d.log();
  EXPECT_EQ(d.terminate(), 0) << d.log();
}

TEST(Reload, WatchConfigWantsAPositiveInterval) {
  for (const char* bad : {"--watch-config=soon", "--watch-config=0s"}) {
    std::string output;
    EXPECT_EQ(testing::runCommand({testing::proflowBinary(), bad}, &output), 2) << bad;
    EXPECT_NE(output.find("--watch-config wants an interval"), std::string::npos) << output;
  }
}

// agent: otlp (HTTP) -> [processors] -> otlp with a persistent queue -> gateway: otlp (gRPC) -> file
std::string agentConfig(int http, int metrics, int gateway, const std::string& queue, const std::string& processors,
                        const std::string& batch_timeout) {
  return "receivers: { otlp: { protocols: { http: { endpoint: 127.0.0.1:" + std::to_string(http) + " } } } }\n" +
         "processors:\n  batch: { timeout: " + batch_timeout + " }\n" +
         "  attributes: { actions: [{ key: team, value: a, action: insert }] }\n" +
         "exporters:\n  otlp:\n    endpoint: 127.0.0.1:" + std::to_string(gateway) +
         "\n    tls: { insecure: true }\n    sending_queue: { directory: " + queue + " }\n" +
         "    retry_on_failure: { initial_interval: 50ms, max_interval: 200ms }\n" +
         "service:\n" + telemetry(metrics) + "  pipelines: { profiles: { receivers: [otlp], processors: [" + processors +
         "], exporters: [otlp] } }\n";
}

std::string gatewayConfig(int grpc, int metrics, const std::string& out) {
  return "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:" + std::to_string(grpc) + " } } } }\n" +
         "exporters: { file: { path: " + out + ", format: otlp_proto, flush_interval: 0 } }\n" + "service:\n" +
         telemetry(metrics) + "  pipelines: { profiles: { receivers: [otlp], exporters: [file] } }\n";
}

TEST(Reload, TwentyReloadsUnderLoadLoseNothingAndRefuseNoConnection) {
  testing::TempDir dir;
  const int gw_grpc = testing::freePort(), gw_metrics = testing::freePort();
  const int http = testing::freePort(), metrics = testing::freePort();
  const std::string out = dir.file("gateway.bin"), queue = dir.file("queue");
  testing::Daemon gateway({"--config", dir.write("gw.yaml", gatewayConfig(gw_grpc, gw_metrics, out))}, dir.file("gw.log"));
  ASSERT_TRUE(gateway.waitHealthy(gw_metrics)) << gateway.log();
  const std::string configs[3] = {
      agentConfig(http, metrics, gw_grpc, queue, "batch", "50ms"),
      agentConfig(http, metrics, gw_grpc, queue, "attributes, batch", "20ms"),
      agentConfig(http, metrics, gw_grpc, queue, "batch, nosuch", "50ms"),  // invalid: unknown processor
  };
  const std::string config = dir.write("agent.yaml", configs[0]);
  testing::Daemon agent({"--config", config}, dir.file("agent.log"));
  ASSERT_TRUE(agent.waitHealthy(metrics)) << agent.log();

  // Two clients post continuously; every answer is recorded.
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::map<int, int> answers;  // request number -> HTTP status (0: no connection / no answer)
  std::atomic<int> next_request{0};
  auto client = [&] {
    while (!stop) {
      const int i = next_request++;
      const int status = postProfiles(http, i).status;
      {
        std::lock_guard lock(mu);
        answers[i] = status;
      }
      std::this_thread::sleep_for(5ms);  // below the pipeline's capacity: a refusal would be the reload's
    }
  };
  std::thread c1(client), c2(client);

  int applied = 0, refused = 0;
  std::vector<double> reload_ms;
  for (int k = 0; k < 20; ++k) {
    std::this_thread::sleep_for(150ms);
    const int variant = k % 3 == 2 ? 2 : k % 2;
    writeAtomically(config, configs[variant]);
    const auto t0 = std::chrono::steady_clock::now();
    auto r = postReload(metrics);
    reload_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (variant == 2) {
      EXPECT_EQ(r.status, 400) << r.body;
      EXPECT_NE(r.body.find("nosuch"), std::string::npos) << r.body;
      ++refused;
    } else {
      EXPECT_EQ(r.status, 200) << r.body;
      ++applied;
    }
  }
  std::this_thread::sleep_for(150ms);
  stop = true;
  c1.join();
  c2.join();

  std::set<std::string> acknowledged;
  std::map<int, size_t> by_status;
  size_t not_answered = 0, not_ok = 0;
  for (const auto& [i, status] : answers) {
    ++by_status[status];
    if (status == 200) acknowledged.insert("svc-" + std::to_string(i));
    else if (status == 0) ++not_answered;
    else ++not_ok;
  }
  std::string statuses;
  for (const auto& [status, n] : by_status) statuses += " " + std::to_string(status) + ":" + std::to_string(n);
  EXPECT_EQ(not_answered, 0u) << "connections refused or unanswered;" << statuses;
  EXPECT_EQ(not_ok, 0u) << "requests refused:" << statuses << "\n" << agent.log();
  ASSERT_GT(acknowledged.size(), 50u);

  // Everything acknowledged arrives at the gateway, once.
  std::map<std::string, int> arrived;
  auto collect = [&] {
    arrived.clear();
    for (const auto& r : testing::readOtlpProtoFile(out))
      for (int i = 0; i < r.resource_profiles_size(); ++i)
        for (const auto& sp : r.resource_profiles(i).scope_profiles()) arrived[testing::serviceName(r, i)] += sp.profiles_size();
    for (const auto& s : acknowledged)
      if (!arrived.count(s)) return false;
    return true;
  };
  EXPECT_TRUE(waitFor(collect, 60s)) << agent.log();
  size_t missing = 0, duplicated = 0;
  for (const auto& s : acknowledged) missing += arrived.count(s) ? 0 : 1;
  for (const auto& [s, n] : arrived) duplicated += static_cast<size_t>(n - 1);
  EXPECT_EQ(missing, 0u);
  EXPECT_EQ(duplicated, 0u);
  std::sort(reload_ms.begin(), reload_ms.end());
  std::printf("reload under load: %zu requests acknowledged, %d reloads applied, %d refused, %zu duplicated; "
              "POST /-/reload took %.1f ms median, %.1f ms max\n",
              acknowledged.size(), applied, refused, duplicated, reload_ms[reload_ms.size() / 2], reload_ms.back());

  // Counters ran on through every reload: the receiver counted every acknowledged request.
  EXPECT_EQ(metric(metrics, "proflow_receiver_accepted_batches_total{receiver=\"otlp\"}"),
            static_cast<double>(acknowledged.size()));
  // The receiver kept its listening socket and the exporter its queue: neither started twice.
  const std::string log = agent.log();
  auto occurrences = [&log](const std::string& what) {
    size_t n = 0;
    for (size_t at = log.find(what); at != std::string::npos; at = log.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(occurrences("OTLP/HTTP listening on"), 1u) << log;
  EXPECT_EQ(occurrences("exporting OTLP/gRPC to"), 1u) << log;
  EXPECT_EQ(metric(metrics, "proflow_config_reloads_total"), 20);
  EXPECT_EQ(metric(metrics, "proflow_config_reload_successes_total"), applied);
  EXPECT_EQ(metric(metrics, "proflow_config_reload_failures_total"), refused);
  EXPECT_EQ(agent.terminate(), 0) << agent.log();
  EXPECT_EQ(gateway.terminate(), 0) << gateway.log();
}

}  // namespace
}  // namespace proflow
