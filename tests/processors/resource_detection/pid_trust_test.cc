// A sender names a process.pid of its choosing: unless the pipeline trusts its receivers to name
// processes (trust_pids), nothing procfs says about that pid (executable, owner, command line with
// the secrets argv may hold) is attached; command lines stay off unless asked for even then. Checked
// against a real process of this test whose argv holds a password.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "tests/support/flat_request.h"
#include "processors/resource_detection/factory.h"
#include "processors/resource_detection/resource_detector.h"
#include "tests/support/component_config.h"
#include "tests/support/daemon.h"
#include "tests/support/profile_builder.h"

namespace proflow::processors::resourcedetection {
namespace {

constexpr const char* kSecret = "--password=hunter2";

// A shell waiting on a sleep; its argv ends with the secret.
class ProcessWithSecret {
 public:
  ProcessWithSecret() {
    pid_ = fork();
    if (pid_ == 0) {
      execl("/bin/sh", "sh", "-c", "sleep 60; true", "sh", kSecret, static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~ProcessWithSecret() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

// A request from a sender claiming `pid`, after detection: every attribute as text, and the whole
// request serialized (to look for the secret anywhere).
struct Enriched {
  std::map<std::string, std::string> attrs;
  std::string wire;
};

Enriched detectFor(const ResourceDetectionConfig& cfg, int64_t pid) {
  ResourceDetector detector(cfg);
  detector.detectStatic();
  auto req = testing::makeRequest("claims-a-pid", {testing::makeProfile(1)});
  auto* kv = req.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
  kv->set_key("process.pid");
  kv->mutable_value()->set_int_value(pid);
  flat::Batch batch;
  EXPECT_TRUE(flat::fromRequest(req, &batch).isOk());
  detector.apply(batch);
  EXPECT_TRUE(flat::toRequest(batch, &req).isOk());
  Enriched out;
  for (const auto& a : req.resource_profiles(0).resource().attributes())
    out.attrs[a.key()] = a.value().has_string_value() ? a.value().string_value() : a.value().DebugString();
  req.SerializeToString(&out.wire);
  return out;
}

bool argvReadable(pid_t pid) {
  return testing::waitFor([&] {
    FILE* f = fopen(("/proc/" + std::to_string(pid) + "/cmdline").c_str(), "r");
    if (!f) return false;
    char buf[256] = {};
    const size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return std::string(buf, n).find(kSecret) != std::string::npos;
  }, std::chrono::seconds(10));
}

TEST(PidTrust, ByDefaultASenderClaimingAnotherProcessGetsNothingOfIt) {
  ProcessWithSecret other;
  ASSERT_TRUE(argvReadable(other.pid()));
  ResourceDetectionConfig cfg;  // the defaults, as config/agent.yaml's applications pipeline uses them
  cfg.detectors = {"process", "container"};
  const Enriched e = detectFor(cfg, other.pid());
  EXPECT_EQ(e.wire.find("hunter2"), std::string::npos);
  for (const char* key : {"process.command_line", "process.command_args", "process.executable.path",
                          "process.executable.name", "process.owner", "process.command", "container.id"})
    EXPECT_EQ(e.attrs.count(key), 0u) << key << " = " << e.attrs.at(key);
}

TEST(PidTrust, ATrustedPipelineGetsTheProcessButNotItsCommandLineUnlessAsked) {
  ProcessWithSecret other;
  ASSERT_TRUE(argvReadable(other.pid()));
  ResourceDetectionConfig cfg;
  cfg.detectors = {"process"};
  cfg.trust_pids = true;
  Enriched e = detectFor(cfg, other.pid());
  EXPECT_EQ(e.attrs["process.executable.name"], "sh");
  EXPECT_EQ(e.attrs.count("process.command_line"), 0u);
  EXPECT_EQ(e.attrs.count("process.command_args"), 0u);
  EXPECT_EQ(e.wire.find("hunter2"), std::string::npos);

  // Asked for: the command line is read from the same process (so the checks above could fail).
  cfg.process.command_line = true;
  e = detectFor(cfg, other.pid());
  EXPECT_NE(e.attrs["process.command_line"].find(kSecret), std::string::npos) << e.attrs["process.command_line"];
}

TEST(PidTrust, TheConfigKeysAndTheirDefaults) {
  const ResourceDetectionConfig defaults;
  EXPECT_FALSE(defaults.trust_pids);
  EXPECT_FALSE(defaults.process.command_line);
  EXPECT_FALSE(defaults.process.command_args);
  auto errors = ::proflow::testing::checkComponentConfig(
      *makeResourceDetectionProcessorFactory(), "detectors: [process]\ntrust_pids: true\nprocess: { command_line: true }\n",
      "processors.resourcedetection");
  EXPECT_TRUE(errors.empty()) << errors.format();
}

}  // namespace
}  // namespace proflow::processors::resourcedetection
