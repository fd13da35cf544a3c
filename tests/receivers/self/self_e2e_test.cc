// The real daemon profiling itself: an OTLP receiver under load from this test, the self receiver
// (1 s interval, 99 Hz) -> symbolize (the daemon's own executable) -> batch -> file. The daemon's
// profile must name the functions of the receiving and batching code paths, with thread names.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <chrono>
#include <fstream>
#include <regex>
#include <set>
#include <thread>

#include "core/model/otlp_types.h"
#include "receivers/self/perf_event_sampler.h"
#include "tests/support/daemon.h"
#include "tests/support/profile_builder.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"

namespace proflow::receivers::self {
namespace {

using namespace std::chrono_literals;
using ::proflow::testing::Daemon;
using ::proflow::testing::waitFor;

std::string config(const std::string& mode, const std::string& dir) {
  return R"(receivers:
  otlp: { protocols: { http: { endpoint: 127.0.0.1:0 } } }
  self: { interval: 1s, frequency: 99, mode: )" + mode + R"(, attributes: { deployment.environment: e2e } }
processors:
  symbolize: { paths: [/proc/self/exe] }
  batch: { timeout: 200ms }
exporters:
  file/load: { path: )" + dir + R"(/load.bin, format: otlp_proto }
  file/self: { path: )" + dir + R"(/self.bin, format: otlp_proto }
service:
  telemetry: { metrics: { address: 127.0.0.1:0 } }
  pipelines:
    profiles: { receivers: [otlp], processors: [batch], exporters: [file/load] }
    profiles/self: { receivers: [self], processors: [symbolize, batch], exporters: [file/self] }
)";
}

int announcedPort(const std::string& log, const std::string& marker) {
  std::smatch m;
  if (!std::regex_search(log, m, std::regex(marker + "[^\n]*\\(port ([0-9]+)\\)"))) return 0;
  return std::stoi(m[1]);
}

// The complete size-prefixed records of a file the daemon may be appending to.
std::vector<otlp::Request> completeRecords(const std::string& path) {
  std::vector<otlp::Request> out;
  std::ifstream in(path, std::ios::binary);
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t pos = 0;
  while (data.size() - pos >= 4) {
    const auto* p = reinterpret_cast<const unsigned char*>(data.data() + pos);
    const size_t len = (size_t{p[0]} << 24) | (size_t{p[1]} << 16) | (size_t{p[2]} << 8) | size_t{p[3]};
    if (data.size() - pos - 4 < len) break;
    otlp::Request r;
    if (r.ParseFromArray(data.data() + pos + 4, static_cast<int>(len))) out.push_back(std::move(r));
    pos += 4 + len;
  }
  return out;
}

struct SelfProfiles {
  size_t resources = 0;  // with service.name=proflow
  std::set<std::string> functions, thread_names, modes, environments;
  int64_t cpu_ns = 0;
};

SelfProfiles summarize(const std::vector<otlp::Request>& requests) {
  SelfProfiles s;
  for (const auto& r : requests) {
    const auto& d = r.dictionary();
    auto str = [&](int32_t i) { return i >= 0 && i < d.string_table_size() ? d.string_table(i) : std::string(); };
    for (const auto& rp : r.resource_profiles()) {
      bool ours = false;
      for (const auto& kv : rp.resource().attributes()) {
        if (kv.key() == "service.name" && kv.value().string_value() == "proflow") ours = true;
        if (kv.key() == "deployment.environment") s.environments.insert(kv.value().string_value());
      }
      if (!ours) continue;
      ++s.resources;
      for (const auto& sp : rp.scope_profiles())
        for (const auto& p : sp.profiles()) {
          for (int32_t a : p.attribute_indices())
            if (str(d.attribute_table(a).key_strindex()) == "proflow.self.mode")
              s.modes.insert(d.attribute_table(a).value().string_value());
          const bool cpu = str(p.sample_type().type_strindex()) == "cpu";
          for (const auto& sample : p.samples()) {
            for (int32_t a : sample.attribute_indices())
              if (str(d.attribute_table(a).key_strindex()) == "thread.name")
                s.thread_names.insert(d.attribute_table(a).value().string_value());
            if (cpu)
              for (int64_t v : sample.values()) s.cpu_ns += v;
          }
        }
    }
    for (const auto& f : d.function_table()) s.functions.insert(str(f.name_strindex()));
  }
  return s;
}

bool anyContains(const std::set<std::string>& names, const std::string& part) {
  for (const auto& n : names)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

// Runs the daemon, loads its OTLP receiver from two threads until the self profile names both
// code paths (or 120 s pass), and returns what the self profiles held.
SelfProfiles runUnderLoad(const std::string& mode, std::string* log) {
  proflow::testing::TempDir dir;
  Daemon daemon({"--config", dir.write("proflow.yaml", config(mode, dir.path()))}, dir.file("proflow.log"));
  int metrics = 0, otlp = 0;
  EXPECT_TRUE(waitFor([&] {
    metrics = announcedPort(daemon.log(), "telemetry: ");
    otlp = announcedPort(daemon.log(), "OTLP/HTTP listening on ");
    return metrics != 0 && otlp != 0;
  }, 20s)) << daemon.log();
  EXPECT_TRUE(daemon.waitHealthy(metrics)) << daemon.log();

  std::vector<std::string> bodies;
  for (int seed = 0; seed < 4; ++seed)
    bodies.push_back(proflow::testing::makeRequest("loadgen", {proflow::testing::makeProfile(3000, seed)})
                         .SerializeAsString());
  std::atomic<bool> stop{false};
  std::atomic<int> accepted{0};
  std::vector<std::thread> senders;
  for (int t = 0; t < 2; ++t)
    senders.emplace_back([&, t] {
      for (size_t i = static_cast<size_t>(t); !stop; ++i) {
        auto r = proflow::testing::rawPost(otlp, "/v1development/profiles",
                                           {{"Content-Type", "application/x-protobuf"}}, bodies[i % bodies.size()]);
        accepted += r.status == 200;
      }
    });
  SelfProfiles seen;
  // Also until the batch processor's own thread has been sampled: callers merge on their threads,
  // so that thread is busy only when it sends, and under a loaded machine the functions can show
  // up in the first records before it does.
  const bool named = waitFor([&] {
    seen = summarize(completeRecords(dir.file("self.bin")));
    return anyContains(seen.functions, "proflow::receivers::otlp::") &&
           anyContains(seen.functions, "proflow::processors::batch::") && anyContains(seen.thread_names, "batch-");
  }, 120s);
  stop = true;
  for (auto& t : senders) t.join();
  EXPECT_TRUE(named) << daemon.log();
  EXPECT_GT(accepted.load(), 10);
  std::string metrics_text;
  EXPECT_EQ(proflow::testing::httpGet(metrics, "/metrics", &metrics_text), 200);
  EXPECT_THAT(metrics_text, ::testing::HasSubstr("proflow_receiver_self_samples_total{receiver=\"self\"}"));
  EXPECT_THAT(metrics_text, ::testing::ContainsRegex("proflow_receiver_self_threads\\{receiver=\"self\"\\} [1-9]"));
  EXPECT_EQ(daemon.terminate(), 0) << daemon.log();
  *log = daemon.log();
  return seen;
}

void expectDaemonProfile(const SelfProfiles& s, const std::string& mode, const std::string& log) {
  EXPECT_GE(s.resources, 1u);
  EXPECT_EQ(s.modes, std::set<std::string>{mode});
  EXPECT_EQ(s.environments, std::set<std::string>{"e2e"});
  EXPECT_GT(s.cpu_ns, 0);
  // Threads carry their component's name.
  EXPECT_TRUE(anyContains(s.thread_names, "batch-")) << ::testing::PrintToString(s.thread_names);
  EXPECT_TRUE(anyContains(s.thread_names, "worker-") || anyContains(s.thread_names, "io-"))
      << ::testing::PrintToString(s.thread_names);
  for (const char* path : {"proflow::receivers::otlp::", "proflow::processors::batch::"})
    for (const auto& f : s.functions)
      if (f.find(path) != std::string::npos) std::printf("%s mode, a function of %s: %s\n", mode.c_str(), path, f.c_str());
  EXPECT_THAT(log, ::testing::HasSubstr("receiver/self: sampling every thread at 99 Hz in mode " + mode));
}

TEST(SelfE2e, PerfEventOrAutoModeNamesTheReceivingAndBatchingCode) {
  const bool perf = PerfEventSampler::probe({}).isOk();
  std::string log;
  const SelfProfiles s = runUnderLoad("auto", &log);
  expectDaemonProfile(s, perf ? "perf_event" : "timer", log);
}

TEST(SelfE2e, TimerModeNamesTheReceivingAndBatchingCode) {
  std::string log;
  const SelfProfiles s = runUnderLoad("timer", &log);
  expectDaemonProfile(s, "timer", log);
}

}  // namespace
}  // namespace proflow::receivers::self
