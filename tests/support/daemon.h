// Runs the real proflow binary as a child process for end-to-end tests.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace proflow::testing {

// A TCP port that was free a moment ago on 127.0.0.1, chosen at random below the ephemeral range.
int freePort();

// Path of the built binary (PROFLOW_BINARY_DIR/proflow).
std::string proflowBinary();

class Daemon {
 public:
  // Extra environment variables for the child (set on top of the test's own environment).
  using Env = std::vector<std::pair<std::string, std::string>>;
  // Starts `proflow <args...>` with stderr/stdout going to `log_path`.
  Daemon(std::vector<std::string> args, std::string log_path, const Env& env = {});
  // Starts another program the same way (a peer of the test, such as another vendor's collector).
  struct Program {
    std::string path;
  };
  Daemon(Program program, std::vector<std::string> args, std::string log_path, const Env& env = {});
  ~Daemon();  // SIGKILLs if still running
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // Polls GET http://127.0.0.1:<metrics_port>/healthz until 200 or the timeout; false on timeout or exit.
  bool waitHealthy(int metrics_port, std::chrono::milliseconds timeout = std::chrono::seconds(20));
  // Sends SIGTERM and waits; returns the exit code (-signal when killed by one, -1000 on timeout).
  int terminate(std::chrono::milliseconds timeout = std::chrono::seconds(30));
  // Waits for exit without signalling (for commands like `validate`).
  int wait(std::chrono::milliseconds timeout = std::chrono::seconds(30));
  bool running();
  std::string log() const;
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int status_ = 0;
  bool exited_ = false;
  std::string log_path_;
};

// Polls `cond` every 50ms until it holds or `timeout` passed; returns its last answer.
bool waitFor(const std::function<bool()>& cond, std::chrono::milliseconds timeout = std::chrono::seconds(30));

// Runs a command to completion; returns exit code and fills `output` (stdout+stderr).
int runCommand(const std::vector<std::string>& argv, std::string* output,
               std::chrono::milliseconds timeout = std::chrono::minutes(5));

// `proflow validate --config <path>`: 0 when valid, or when its only errors are files the config
// names and this machine lacks (a deployment's mounted secrets: validate reads them as start-up
// would); otherwise validate's exit code. `output` gets what it printed.
int validateShippedConfig(const std::string& path, std::string* output);

// Minimal blocking HTTP/1.1 GET on 127.0.0.1 (no dependency on the code under test). Returns the
// status code (0 when the connection failed) and fills `body`.
int httpGet(int port, const std::string& path, std::string* body = nullptr);

}  // namespace proflow::testing
