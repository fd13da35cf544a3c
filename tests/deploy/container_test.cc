// The container image of docker/Dockerfile, built with podman from this tree's `proflow` (the
// `prebuilt` target) and run: the HEALTHCHECK reports healthy, the daemon runs as uid 10001 without
// capabilities, a real Go pprof profile POSTed to it is counted in /metrics and written to the state
// directory, and `podman stop` (SIGTERM) ends it with exit code 0. The container and the test's image
// are removed; the runtime stage stays tagged as layer cache for the next run.
// Registered only when podman was found at configure time (label `container`).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/daemon.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// The image of the Dockerfile's runtime stage, kept between runs as build cache
// (`podman rmi localhost/proflow-test-runtime` removes it).
constexpr const char* kRuntimeCache = "localhost/proflow-test-runtime:latest";

struct Result {
  int code;
  std::string out;
};

Result podman(std::vector<std::string> args, std::chrono::milliseconds timeout = 2min) {
  args.insert(args.begin(), PROFLOW_PODMAN);
  Result r{};
  r.code = testing::runCommand(args, &r.out, timeout);
  return r;
}

// The container and the image the test made, removed whatever happens.
struct Cleanup {
  std::string container, image;
  ~Cleanup() {
    if (!container.empty()) podman({"rm", "--force", "--time", "0", container});
    if (!image.empty()) podman({"rmi", "--force", image});
  }
};

// The value of a counter series, e.g. `name{receiver="pprof"}`, in a Prometheus text page (-1 if absent).
double metric(const std::string& page, const std::string& series) {
  const auto at = page.find("\n" + series + " ");
  if (at == std::string::npos) return -1;
  return std::stod(page.substr(at + series.size() + 2));
}

// The first line of `out` that starts with `prefix` (podman may print warnings around its answer).
std::string lineStarting(const std::string& out, const std::string& prefix) {
  size_t pos = 0;
  while (pos < out.size()) {
    const size_t end = out.find('\n', pos);
    const std::string line = out.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (line.rfind(prefix, 0) == 0) return line;
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return "";
}

TEST(ContainerImage, BuiltFromTheTreeRunsHealthyAsNonRootCountsAProfileAndStopsCleanly) {
  testing::TempDir context;
  // podman's configuration: the one named when the build was configured or in the environment, else
  // one that sets no ulimits. Rootful podman otherwise asks for nofile and nproc of 1048576, which
  // runc applies with prlimit, and hosts that forbid raising them (sandboxes, nested containers)
  // refuse the container ("error setting rlimits ... operation not permitted"); without them the
  // container keeps the limits podman runs with.
  if (const char* conf = PROFLOW_CONTAINERS_CONF; conf[0] != '\0') setenv("CONTAINERS_CONF", conf, 0);
  setenv("CONTAINERS_CONF", context.write("containers.conf", "[containers]\ndefault_ulimits = []\n").c_str(), 0);
  const std::string suffix = std::to_string(getpid());
  Cleanup made;

  // A build context with only what the `prebuilt` target copies: the binary and the image's config.
  fs::create_directories(context.path() / "docker");
  fs::copy_file(testing::proflowBinary(), context.path() / "proflow");
  fs::copy_file(fs::path(PROFLOW_SOURCE_DIR) / "docker" / "proflow.yaml", context.path() / "docker" / "proflow.yaml");
  const std::string dockerfile = std::string(PROFLOW_SOURCE_DIR) + "/docker/Dockerfile";
  // The runtime stage is tagged and kept: it is the layer cache of the next run (removing the
  // test's own image would otherwise remove its untagged parents too, and every run would install
  // the packages again).
  const Result runtime = podman({"build", "--format", "docker", "--network", "host", "--target", "runtime", "--tag",
                                 kRuntimeCache, "--file", dockerfile, context.path().string()},
                                20min);
  ASSERT_EQ(runtime.code, 0) << runtime.out;
  made.image = "localhost/proflow-container-test-" + suffix + ":latest";
  const Result build = podman({"build", "--format", "docker", "--network", "host", "--target", "prebuilt",
                               "--build-arg", "PROFLOW_BINARY=proflow", "--tag", made.image, "--file", dockerfile,
                               context.path().string()},
                              20min);
  ASSERT_EQ(build.code, 0) << build.out;
  // Only the runtime and prebuilt stages ran: the compile stage (after the target) was never started.
  EXPECT_EQ(build.out.find("install-deps.sh"), std::string::npos) << build.out;

  // Free ports on the host (the container shares its network), passed in a mounted config that
  // replaces the image's own, so the HEALTHCHECK (which reads that path) asks the right port.
  const int pprof_port = testing::freePort(), otlp_port = testing::freePort(), metrics_port = testing::freePort();
  const std::string config = context.write("proflow.yaml", R"(receivers:
  pprof: { endpoint: "127.0.0.1:)" + std::to_string(pprof_port) + R"(" }
  otlp: { protocols: { http: { endpoint: "127.0.0.1:)" + std::to_string(otlp_port) + R"(" } } }
exporters:
  file: { path: /var/lib/proflow/profiles.jsonl, format: otlp_json }
service:
  pipelines:
    profiles: { receivers: [pprof, otlp], exporters: [file] }
  telemetry:
    metrics: { address: "127.0.0.1:)" + std::to_string(metrics_port) + R"(" }
)");
  fs::permissions(config, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
  made.container = "proflow-container-test-" + suffix;
  const Result run = podman({"run", "--detach", "--name", made.container, "--network", "host", "--volume",
                             config + ":/etc/proflow/proflow.yaml:ro", made.image});
  ASSERT_EQ(run.code, 0) << run.out;

  // The image's HEALTHCHECK (kept by --format docker) passes once the daemon serves /healthz.
  Result health{};
  ASSERT_TRUE(testing::waitFor([&] { return (health = podman({"healthcheck", "run", made.container})).code == 0; }, 60s))
      << health.out << podman({"logs", made.container}).out;
  const Result status = podman({"inspect", "--format", "health={{.State.Health.Status}}", made.container});
  EXPECT_EQ(lineStarting(status.out, "health="), "health=healthy") << status.out;

  // PID 1 of the container is the daemon, running as uid 10001 (real, effective, saved, fs) with
  // no effective capabilities.
  const Result proc = podman({"exec", made.container, "cat", "/proc/1/status", "/proc/1/cmdline"});
  ASSERT_EQ(proc.code, 0) << proc.out;
  EXPECT_TRUE(std::regex_search(proc.out, std::regex("\nUid:\t10001\t10001\t10001\t10001\n"))) << proc.out;
  EXPECT_NE(lineStarting(proc.out, "CapEff:\t0000000000000000"), "") << proc.out;
  EXPECT_NE(proc.out.find("/usr/local/bin/proflow"), std::string::npos) << proc.out;

  // A real Go CPU profile through the pprof receiver, counted in /metrics.
  std::string page;
  ASSERT_EQ(testing::httpGet(metrics_port, "/metrics", &page), 200);
  const std::string batches = R"(proflow_receiver_accepted_batches_total{receiver="pprof"})";
  const std::string samples = R"(proflow_receiver_accepted_samples_total{receiver="pprof"})";
  EXPECT_EQ(metric(page, batches), 0) << page;
  const std::string profile = testing::readFile(std::string(PROFLOW_SOURCE_DIR) + "/bench/load/testdata/go_cpu.pb.gz");
  ASSERT_GT(profile.size(), 1000u);
  const auto posted = testing::rawPost(pprof_port, "/v1/pprof?service.name=container-test", {}, profile);
  ASSERT_EQ(posted.status, 200) << posted.body;
  EXPECT_TRUE(testing::waitFor([&] {
    return testing::httpGet(metrics_port, "/metrics", &page) == 200 && metric(page, batches) == 1;
  }, 20s)) << page;
  EXPECT_GT(metric(page, samples), 0) << page;
  // The file exporter wrote it into the image's state directory, as uid 10001.
  Result file{};
  EXPECT_TRUE(testing::waitFor([&] {
    file = podman({"exec", made.container, "stat", "--format", "file=%u:%s", "/var/lib/proflow/profiles.jsonl"});
    const std::string line = lineStarting(file.out, "file=10001:");
    return !line.empty() && line != "file=10001:0";
  }, 20s)) << file.out;

  // SIGTERM from `podman stop` drains and exits 0 well before podman's fallback to SIGKILL.
  const Result stop = podman({"stop", "--time", "30", made.container});
  ASSERT_EQ(stop.code, 0) << stop.out;
  const Result exited = podman({"inspect", "--format", "exit={{.State.ExitCode}}", made.container});
  EXPECT_EQ(lineStarting(exited.out, "exit="), "exit=0") << exited.out << podman({"logs", made.container}).out;
  const Result logs = podman({"logs", made.container});
  EXPECT_NE(logs.out.find("received SIGTERM"), std::string::npos) << logs.out;
  EXPECT_NE(logs.out.find("proflow: stopped"), std::string::npos) << logs.out;
}

}  // namespace
}  // namespace proflow
