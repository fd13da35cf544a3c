#include "tests/support/daemon.h"

#include <sstream>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "tests/support/temp_dir.h"

namespace proflow::testing {

namespace {

bool bindable(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  close(fd);
  return ok;
}

// The kernel's ephemeral range (where bind(0) and every outgoing connection take their ports).
int ephemeralLow() {
  std::ifstream in("/proc/sys/net/ipv4/ip_local_port_range");
  int low = 32768, high = 60999;
  in >> low >> high;
  return low;
}

}  // namespace

// A port is handed to a daemon some time after it is chosen. Ports from the ephemeral range are
// also taken by the client side of every connection the suite opens meanwhile (the daemon then
// fails with "Address already in use"), so choose below that range, at random, and check it binds.
// A port is handed out once per process: a test that picks several before starting anything must
// not get one twice (gRPC servers bind with SO_REUSEPORT, so two of them would share it silently).
int freePort() {
  static const int high = ephemeralLow();
  static std::mutex mu;
  static std::mt19937 rng(std::random_device{}());
  static std::set<int> handed_out;
  if (high > 12000) {
    std::lock_guard<std::mutex> lock(mu);
    std::uniform_int_distribution<int> pick(10000, high - 1);
    for (int attempt = 0; attempt < 64; ++attempt)
      if (int port = pick(rng); !handed_out.count(port) && bindable(port)) {
        handed_out.insert(port);
        return port;
      }
  }
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  int port = ntohs(addr.sin_port);
  close(fd);
  return port;
}

std::string proflowBinary() { return std::string(PROFLOW_BINARY_DIR) + "/proflow"; }

int validateShippedConfig(const std::string& path, std::string* output) {
  const int rc = runCommand({proflowBinary(), "validate", "--config", path}, output);
  if (rc != 1) return rc;
  std::istringstream lines(*output);
  bool errors = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.find(": ") == std::string::npos || line.rfind("proflow:", 0) == 0 || line.rfind("warning:", 0) == 0)
      continue;  // not an error line
    errors = true;
    if (line.find("does not exist or is not a regular file") == std::string::npos) return rc;
  }
  return errors ? 0 : rc;
}

namespace {

pid_t spawn(const std::vector<std::string>& argv, int out_fd, const Daemon::Env& env = {}) {
  pid_t pid = fork();
  if (pid == 0) {
    for (const auto& [name, value] : env) setenv(name.c_str(), value.c_str(), 1);
    dup2(out_fd, 1);
    dup2(out_fd, 2);
    // The test process may have stop signals blocked; the child must start clean.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  return pid;
}

}  // namespace

bool waitFor(const std::function<bool()>& cond, std::chrono::milliseconds timeout) {
  auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    if (cond()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return cond();
}

namespace {

bool waitPid(pid_t pid, int* status, std::chrono::milliseconds timeout) {
  auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

int exitCode(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return -WTERMSIG(status);
  return -1;
}

}  // namespace

Daemon::Daemon(std::vector<std::string> args, std::string log_path, const Env& env)
    : Daemon(Program{proflowBinary()}, std::move(args), std::move(log_path), env) {}

Daemon::Daemon(Program program, std::vector<std::string> args, std::string log_path, const Env& env)
    : log_path_(std::move(log_path)) {
  args.insert(args.begin(), std::move(program.path));
  int fd = open(log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_ = spawn(args, fd, env);
  close(fd);
}

Daemon::~Daemon() {
  if (!exited_ && pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, &status_, 0);
  }
}

bool Daemon::running() {
  if (exited_) return false;
  if (waitpid(pid_, &status_, WNOHANG) == pid_) exited_ = true;
  return !exited_;
}

bool Daemon::waitHealthy(int metrics_port, std::chrono::milliseconds timeout) {
  auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    if (!running()) return false;
    if (httpGet(metrics_port, "/healthz") == 200) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

int Daemon::terminate(std::chrono::milliseconds timeout) {
  if (!exited_) kill(pid_, SIGTERM);
  return wait(timeout);
}

int Daemon::wait(std::chrono::milliseconds timeout) {
  if (!exited_) {
    if (!waitPid(pid_, &status_, timeout)) return -1000;
    exited_ = true;
  }
  return exitCode(status_);
}

std::string Daemon::log() const { return readFile(log_path_); }

int runCommand(const std::vector<std::string>& argv, std::string* output, std::chrono::milliseconds timeout) {
  TempDir dir;
  std::string log = dir.file("out.txt");
  int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = spawn(argv, fd);
  close(fd);
  int status = 0;
  if (!waitPid(pid, &status, timeout)) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    if (output) *output = readFile(log) + "\n[timed out]";
    return -1000;
  }
  if (output) *output = readFile(log);
  return exitCode(status);
}

int httpGet(int port, const std::string& path, std::string* body) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  timeval tv{5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return 0;
  }
  std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  if (send(fd, req.data(), req.size(), MSG_NOSIGNAL) < 0) {
    close(fd);
    return 0;
  }
  std::string resp;
  char buf[8192];
  ssize_t n;
  while ((n = recv(fd, buf, sizeof buf, 0)) > 0) resp.append(buf, static_cast<size_t>(n));
  close(fd);
  if (resp.size() < 12) return 0;
  int code = std::atoi(resp.c_str() + 9);
  if (body) {
    auto pos = resp.find("\r\n\r\n");
    *body = pos == std::string::npos ? "" : resp.substr(pos + 4);
  }
  return code;
}

}  // namespace proflow::testing
