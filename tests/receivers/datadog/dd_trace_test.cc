// The real tracer: dd-trace from npm (installed into the build tree at test time, once) profiles a
// small Node.js service (node_app/app.js) and uploads to the receiver as it would to the Agent. The
// app's own function names, its service/env/version and span links must arrive in OTLP.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>

#include "tests/receivers/datadog/fake_agent.h"
#include "tests/receivers/datadog/harness.h"
#include "tests/receivers/datadog/otlp_view.h"
#include "tests/support/daemon.h"
#include "tests/support/machine_permits.h"
#include "tests/support/temp_dir.h"
#include "tests/support/flat_request.h"

namespace proflow::receivers::datadog {
namespace {

using namespace testing;

const std::string kAppDir = std::string(PROFLOW_SOURCE_DIR) + "/tests/receivers/datadog/node_app";
const std::string kNodeDir = std::string(PROFLOW_BINARY_DIR) + "/tests/receivers/datadog/node";

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// node_modules with dd-trace under the build tree ("" and `error` when node/npm are missing or the
// install failed). Installed once per version of node_app/package.json; later runs reuse it.
std::string ddTraceModules(std::string* error) {
  std::string out;
  if (proflow::testing::runCommand({"sh", "-c", "command -v node && command -v npm"}, &out) != 0) {
    *error = "node and npm are required (Debian nodejs npm, see scripts/install-deps.sh)";
    return {};
  }
  const std::string modules = kNodeDir + "/node_modules";
  std::filesystem::create_directories(kNodeDir);
  // The tracer tests run side by side under `ctest -j`: one installs while the others wait on the lock.
  const int lock = ::open((kNodeDir + "/.install.lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (lock < 0 || ::flock(lock, LOCK_EX) != 0) {
    *error = "cannot lock " + kNodeDir;
    if (lock >= 0) ::close(lock);
    return {};
  }
  struct Unlock {
    int fd;
    ~Unlock() { ::close(fd); }  // closing releases the lock
  } unlock{lock};
  // Reused while the app's package.json (which pins dd-trace) is the one a finished install recorded.
  const std::string installed = kNodeDir + "/.installed-package.json";
  const std::string wanted = proflow::testing::readFile(kAppDir + "/package.json");
  if (std::filesystem::exists(modules + "/dd-trace/package.json") && std::filesystem::exists(installed) &&
      proflow::testing::readFile(installed) == wanted)
    return modules;
  std::filesystem::copy_file(kAppDir + "/package.json", kNodeDir + "/package.json",
                             std::filesystem::copy_options::overwrite_existing);
  const std::string cmd = "cd " + quote(kNodeDir) + " && npm install --no-audit --no-fund --loglevel=error 2>&1";
  if (proflow::testing::runCommand({"sh", "-c", cmd}, &out, std::chrono::minutes(5)) != 0 ||
      !std::filesystem::exists(modules + "/dd-trace/package.json")) {
    // Most often the registry is out of reach (no network, a proxy): its first lines say which.
    *error = "npm install dd-trace from the npm registry failed: " + out.substr(0, std::min<size_t>(out.find("    at "), 300));
    return {};
  }
  std::filesystem::copy_file(kAppDir + "/package.json", installed, std::filesystem::copy_options::overwrite_existing);
  return modules;
}

bool hasFunction(const otlp::Request& r, const std::string& name) {
  const auto names = functionNames(r);
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Runs node_app/app.js against the receiver on `port` for `seconds`; the app's exit code, its output in `out`.
int runApp(const std::string& modules, int port, int seconds, std::string* out) {
  const std::string env = "NODE_PATH=" + quote(modules) + " DD_TRACE_AGENT_URL=http://127.0.0.1:" +
                          std::to_string(port) +
                          " DD_SERVICE=proflow-node-app DD_ENV=ci DD_VERSION=4.5.6 DD_PROFILING_ENABLED=true"
                          " DD_PROFILING_UPLOAD_PERIOD=2 DD_TRACE_STARTUP_LOGS=false DD_INSTRUMENTATION_TELEMETRY_ENABLED=false"
                          " DD_REMOTE_CONFIGURATION_ENABLED=false RUN_SECONDS=" + std::to_string(seconds);
  return proflow::testing::runCommand({"sh", "-c", env + " node " + quote(kAppDir + "/app.js") + " 2>&1"}, out,
                                      std::chrono::seconds(60));
}

TEST_F(DatadogReceiverTest, NodeDdTraceProfilesArriveWithFunctionsTagsAndSpanLinks) {
  std::string error;
  const std::string modules = ddTraceModules(&error);
  PROFLOW_SKIP_IF_REFUSED(error);
  start({});
  std::string out;
  ASSERT_EQ(runApp(modules, port_, 9, &out), 0) << out;

  const auto batches = capture_->wait(2, std::chrono::seconds(5));
  ASSERT_FALSE(batches.empty()) << "no profile upload arrived; app output:\n" << out;
  bool functions = false, linked = false;
  std::set<std::string> types;
  for (const Batch& b : batches) {
    const otlp::Request& r = ::proflow::testing::requestOf(b);
    ASSERT_EQ(r.resource_profiles_size(), 1);
    const auto& rp = r.resource_profiles(0);
    EXPECT_EQ(resourceAttr(rp, "service.name"), "proflow-node-app");
    EXPECT_EQ(resourceAttr(rp, "deployment.environment.name"), "ci");
    EXPECT_EQ(resourceAttr(rp, "service.version"), "4.5.6");
    EXPECT_EQ(resourceAttr(rp, "process.runtime.name"), "nodejs");
    EXPECT_NE(resourceAttr(rp, "service.instance.id"), "");
    functions |= hasFunction(r, "proflowBurnInner") && hasFunction(r, "proflowBurnOuter");
    for (const auto& sp : rp.scope_profiles())
      for (const auto& p : sp.profiles()) {
        types.insert(std::string(dictString(r.dictionary(), p.sample_type().type_strindex())));
        for (const auto& s : p.samples()) {
          if (s.link_index() == 0) continue;
          const auto& link = r.dictionary().link_table(s.link_index());
          const std::string span = sampleAttr(r, s, "span id");
          const std::string root = sampleAttr(r, s, "local root span id");
          if (span.empty() || root.empty()) continue;
          // The link carries the span label's id, and the trace id is derived from the root span id.
          char want[17];
          std::snprintf(want, sizeof want, "%016llx", std::stoull(span));
          EXPECT_EQ(hex(link.span_id()), want);
          std::snprintf(want, sizeof want, "%016llx", std::stoull(root));
          EXPECT_EQ(hex(link.trace_id()), std::string(16, '0') + want);
          EXPECT_EQ(sampleAttr(r, s, "trace endpoint"), "GET /burn");
          linked = true;
        }
      }
  }
  EXPECT_TRUE(functions) << "the app's functions are missing from every upload";
  EXPECT_TRUE(linked) << "no sample links to a span";
  EXPECT_TRUE(types.count("wall")) << "no wall-time profile";
}

// In front of an Agent: the tracer's traces and profiles reach the Agent, and the profiles the pipeline.
TEST_F(DatadogReceiverTest, NodeDdTraceThroughForwardToReachesTheAgentAndThePipeline) {
  std::string error;
  const std::string modules = ddTraceModules(&error);
  PROFLOW_SKIP_IF_REFUSED(error);
  FakeAgent agent(runtime_.io());
  DatadogReceiverConfig cfg;
  cfg.forward_to = agent.url();
  start(cfg);
  std::string out;
  ASSERT_EQ(runApp(modules, port_, 5, &out), 0) << out;
  const auto batches = capture_->wait(1, std::chrono::seconds(5));
  ASSERT_FALSE(batches.empty()) << "no profile reached the pipeline; app output:\n" << out;
  EXPECT_EQ(resourceAttr(::proflow::testing::requestOf(batches[0]).resource_profiles(0), "service.name"), "proflow-node-app");
  bool traces = false, profiles = false;
  for (const auto& got : agent.received()) {
    traces |= got.target.find("/traces") != std::string::npos && !got.body.empty();
    profiles |= got.target == "/profiling/v1/input" && got.body.find("event.json") != std::string::npos;
  }
  EXPECT_TRUE(traces) << "the Agent got no traces";
  EXPECT_TRUE(profiles) << "the Agent got no profile upload";
}

}  // namespace
}  // namespace proflow::receivers::datadog
