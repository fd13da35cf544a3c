// Refusals reach real clients. Python's http.client, Go's net/http, curl and Node's http write a
// whole body before they read the answer; when the daemon refuses an upload it has not read (the
// in-flight budget, a body over the size limit, missing credentials) and closes the socket while
// they are still sending, they see a broken pipe or a reset instead of the 429 / 413 / 401 meant for
// them, and retry at once without the Retry-After. Each client program uploads a ~9.7 MB pprof from
// many concurrent connections; every one must end with a status code.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "tests/support/daemon.h"
#include "tests/support/go_programs.h"
#include "tests/support/large_pprof.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

const std::string kCrowdDir = std::string(PROFLOW_SOURCE_DIR) + "/tests/e2e/testdata/crowd";
constexpr int kClients = 40;

struct Outcome {
  std::map<int, int> statuses;  // status code -> clients
  int retry_after = 0;          // 429/503 answers that carried Retry-After
  std::vector<std::string> errors;
  int total() const {
    int n = static_cast<int>(errors.size());
    for (const auto& [code, count] : statuses) n += count;
    return n;
  }
};

// Lines "status <code> <Retry-After or ->" and "error <what>".
Outcome parse(const std::string& output) {
  Outcome o;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string kind, retry;
    int code = 0;
    if (!(words >> kind)) continue;
    if (kind == "status" && words >> code >> retry) {
      ++o.statuses[code];
      if ((code == 429 || code == 503) && retry != "-") ++o.retry_after;
    } else {
      o.errors.push_back(line);
    }
  }
  return o;
}

std::string describe(const Outcome& o) {
  std::string s;
  for (const auto& [code, count] : o.statuses) s += std::to_string(count) + " x " + std::to_string(code) + ", ";
  s += std::to_string(o.errors.size()) + " errors";
  for (size_t i = 0; i < o.errors.size() && i < 5; ++i) s += "\n  " + o.errors[i];
  return s;
}

class RefusalClients : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    budget_port_ = testing::freePort();
    small_port_ = testing::freePort();
    auth_port_ = testing::freePort();
    const int metrics_port = testing::freePort();
    // pprof: a budget that holds a few such bodies (and their conversion, about 5x), so most of the
    // crowd is refused unread;
    // pprof/small: every body is over its size limit; pprof/auth: no client sends the token.
    const std::string config =
        "receivers:\n"
        "  pprof: { endpoint: 127.0.0.1:" + std::to_string(budget_port_) +
        ", max_request_body_size: 16MiB, max_in_flight_bytes: 128MiB }\n"
        "  pprof/small: { endpoint: 127.0.0.1:" + std::to_string(small_port_) +
        ", max_request_body_size: 4MiB, max_in_flight_bytes: 32MiB }\n"
        "  pprof/auth: { endpoint: 127.0.0.1:" + std::to_string(auth_port_) +
        ", max_request_body_size: 16MiB, auth: { authenticator: bearertokenauth } }\n"
        "extensions: { bearertokenauth: { token: crowd-secret } }\n"
        "processors: { memory_limiter: { check_interval: 100ms, limit_mib: 512, spike_limit_mib: 128 } }\n"
        "exporters: { debug: {} }\n"
        "service:\n"
        "  extensions: [bearertokenauth]\n"
        "  telemetry: { metrics: { address: 127.0.0.1:" + std::to_string(metrics_port) + " } }\n" +
        "  pipelines: { profiles: { receivers: [pprof, pprof/small, pprof/auth], processors: [memory_limiter], "
        "exporters: [debug] } }\n";
    daemon_ = new testing::Daemon({"--config", dir_->write("crowd.yaml", config)}, dir_->file("daemon.log"));
    ASSERT_TRUE(daemon_->waitHealthy(metrics_port)) << daemon_->log();
    body_ = dir_->write("body.pprof", testing::cpuShapedPprof(9'700'000));
  }
  static void TearDownTestSuite() {
    if (daemon_) EXPECT_EQ(daemon_->terminate(), 0) << daemon_->log();
    delete daemon_;
    delete dir_;
  }

  // Runs `command` (a client program taking PORT TARGET FILE CLIENTS) against `port`.
  static Outcome crowd(const std::string& command, int port, int clients) {
    std::string out;
    const std::string cmd = command + " " + std::to_string(port) + " '/v1/pprof?service.name=crowd' '" + body_ +
                            "' " + std::to_string(clients);
    const int rc = testing::runCommand({"sh", "-c", cmd}, &out);
    EXPECT_EQ(rc, 0) << cmd << "\n" << out.substr(0, 2000);
    return parse(out);
  }

  // The three refusals for one client program: the budget (429 with Retry-After, some accepted),
  // the size limit (413) and missing credentials (401), each answered to every connection.
  static void expectEveryClientAnswered(const std::string& command) {
    Outcome busy = crowd(command, budget_port_, kClients);
    EXPECT_EQ(busy.total(), kClients) << describe(busy);
    EXPECT_TRUE(busy.errors.empty()) << describe(busy);
    EXPECT_GT(busy.statuses[200], 0) << describe(busy);
    EXPECT_GT(busy.statuses[429], 0) << describe(busy);
    EXPECT_EQ(busy.retry_after, busy.statuses[429] + busy.statuses[503]) << describe(busy);
    EXPECT_EQ(busy.statuses[200] + busy.statuses[429] + busy.statuses[503], kClients) << describe(busy);

    Outcome large = crowd(command, small_port_, kClients / 4);
    EXPECT_EQ(large.statuses[413], kClients / 4) << describe(large);
    Outcome anonymous = crowd(command, auth_port_, kClients / 4);
    EXPECT_EQ(anonymous.statuses[401], kClients / 4) << describe(anonymous);
  }

  static testing::TempDir* dir_;
  static testing::Daemon* daemon_;
  static std::string body_;
  static int budget_port_, small_port_, auth_port_;
};

testing::TempDir* RefusalClients::dir_ = nullptr;
testing::Daemon* RefusalClients::daemon_ = nullptr;
std::string RefusalClients::body_;
int RefusalClients::budget_port_ = 0, RefusalClients::small_port_ = 0, RefusalClients::auth_port_ = 0;

TEST_F(RefusalClients, PythonHttpClient) {
  expectEveryClientAnswered("/usr/bin/python3 " + kCrowdDir + "/crowd.py");
}

TEST_F(RefusalClients, GoNetHttp) {
  std::string out;
  const std::string bin = dir_->file("crowd-go");
  ASSERT_EQ(testing::goBuild(kCrowdDir + "/go", bin), "") << "building the Go client failed";
  expectEveryClientAnswered(bin);
}

TEST_F(RefusalClients, CurlWithAndWithoutExpectContinue) {
  std::string out;
  ASSERT_EQ(testing::runCommand({"sh", "-c", "command -v curl"}, &out), 0) << "curl is required";
  expectEveryClientAnswered(kCrowdDir + "/crowd-curl.sh");
}

TEST_F(RefusalClients, NodeHttp) {
  std::string out;
  ASSERT_EQ(testing::runCommand({"sh", "-c", "command -v node"}, &out), 0) << "node is required (Debian nodejs)";
  expectEveryClientAnswered("node " + kCrowdDir + "/crowd.js");
}

}  // namespace
}  // namespace proflow
