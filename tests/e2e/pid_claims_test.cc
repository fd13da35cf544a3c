// A sender that claims another process's pid through the real daemon: with resourcedetection's
// defaults (process and container detectors listed, trust_pids false) nothing of that process, its
// command line with a password least of all, reaches the exported data; the same request through a
// pipeline declared trusted with command lines on does carry it, so the check could fail.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "tests/support/daemon.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;

constexpr const char* kSecret = "--password=hunter2";

std::string otlpJson(pid_t pid) {
  return R"({"resourceProfiles":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"claimant"}},
  {"key":"process.pid","value":{"intValue":")" + std::to_string(pid) + R"("}}]},
  "scopeProfiles":[{"profiles":[{"sampleType":{"typeStrindex":1,"unitStrindex":2},
    "timeUnixNano":"1700000000000000000","durationNano":"10000000000",
    "samples":[{"stackIndex":1,"values":["30000000"]}]}]}]}],
 "dictionary":{"stringTable":["","cpu","nanoseconds","work","main"],
  "functionTable":[{},{"nameStrindex":3},{"nameStrindex":4}],
  "locationTable":[{},{"lines":[{"functionIndex":1}]},{"lines":[{"functionIndex":2}]}],
  "stackTable":[{},{"locationIndices":[1,2]}],
  "mappingTable":[{}],"attributeTable":[{}],"linkTable":[{}]}})";
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(PidClaims, ASenderNamingAnotherProcessNeverGetsItsCommandLine) {
  const pid_t other = fork();
  if (other == 0) {
    execl("/bin/sh", "sh", "-c", "sleep 120; true", "sh", kSecret, static_cast<char*>(nullptr));
    _exit(127);
  }
  ASSERT_GT(other, 0);
  testing::TempDir dir;
  const int apps = testing::freePort(), trusted = testing::freePort(), metrics = testing::freePort();
  const std::string config = dir.write("proflow.yaml", R"(
receivers:
  otlp: { protocols: { http: { endpoint: 127.0.0.1:)" + std::to_string(apps) + R"( } } }
  otlp/trusted: { protocols: { http: { endpoint: 127.0.0.1:)" + std::to_string(trusted) + R"( } } }
processors:
  resourcedetection: { detectors: [env, process, container] }
  resourcedetection/trusted: { detectors: [process], trust_pids: true, process: { command_line: true } }
exporters:
  file: { path: )" + dir.file("apps.jsonl") + R"(, format: otlp_json, flush_interval: 0 }
  file/trusted: { path: )" + dir.file("trusted.jsonl") + R"(, format: otlp_json, flush_interval: 0 }
service:
  telemetry: { metrics: { address: 127.0.0.1:)" + std::to_string(metrics) + R"( } }
  pipelines:
    profiles: { receivers: [otlp], processors: [resourcedetection], exporters: [file] }
    profiles/trusted: { receivers: [otlp/trusted], processors: [resourcedetection/trusted], exporters: [file/trusted] }
)");
  testing::Daemon d({"--config", config}, dir.file("d.log"));
  ASSERT_TRUE(d.waitHealthy(metrics)) << d.log();
  for (int port : {apps, trusted}) {
    auto r = testing::rawPost(port, "/v1development/profiles", {{"Content-Type", "application/json"}}, otlpJson(other));
    EXPECT_EQ(r.status, 200) << r.body;
  }
  ASSERT_TRUE(testing::waitFor([&] {
    return slurp(dir.file("apps.jsonl")).find("claimant") != std::string::npos &&
           slurp(dir.file("trusted.jsonl")).find("claimant") != std::string::npos;
  }, 20s)) << d.log();
  const std::string exported = slurp(dir.file("apps.jsonl"));
  EXPECT_EQ(exported.find("hunter2"), std::string::npos) << exported;
  EXPECT_EQ(exported.find("process.executable"), std::string::npos) << exported;
  EXPECT_EQ(exported.find("process.owner"), std::string::npos) << exported;
  EXPECT_NE(slurp(dir.file("trusted.jsonl")).find("hunter2"), std::string::npos)
      << "the trusted pipeline reads the same process";
  EXPECT_EQ(d.terminate(), 0);
  kill(other, SIGKILL);
  waitpid(other, nullptr, 0);
}

}  // namespace
}  // namespace proflow
