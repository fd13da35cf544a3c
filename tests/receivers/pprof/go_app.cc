#include "tests/receivers/pprof/go_app.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "tests/support/daemon.h"
#include "tests/support/go_programs.h"

namespace proflow::testing {
namespace {

const std::string kSourceDir = std::string(PROFLOW_SOURCE_DIR) + "/tests/receivers/pprof/testdata/pprofapp";
const std::string kGoDir = std::string(PROFLOW_BINARY_DIR) + "/tests/receivers/pprof/go";
}  // namespace

std::string pprofAppBinary(std::string* error) {
  static std::once_flag once;
  static std::string binary, build_error;
  std::call_once(once, [] {
    std::filesystem::create_directories(kGoDir);
    const std::string bin = kGoDir + "/pprofapp." + std::to_string(getpid());
    if (std::string failed = goBuild(kSourceDir, bin); !failed.empty()) {
      build_error = "building testdata/pprofapp failed: " + failed;
      return;
    }
    std::filesystem::rename(bin, kGoDir + "/pprofapp");
    binary = kGoDir + "/pprofapp";  // renamed atomically: concurrent test processes may share it
  });
  if (binary.empty()) *error = build_error;
  return binary;
}

ServingGoApp::ServingGoApp(const std::string& binary) {
  int fds[2];
  if (pipe(fds) != 0) {
    error_ = "pipe failed";
    return;
  }
  pid_ = fork();
  if (pid_ == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    execl(binary.c_str(), binary.c_str(), "-serve", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  // Read "PORT <n>\n" (the program prints it once listening).
  std::string line;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (line.find('\n') == std::string::npos && std::chrono::steady_clock::now() < until) {
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, 200) <= 0) continue;
    char buf[64];
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n <= 0) break;
    line.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (line.rfind("PORT ", 0) == 0) port_ = std::atoi(line.c_str() + 5);
  if (port_ == 0) error_ = "pprofapp -serve did not print its port; got '" + line + "'";
}

ServingGoApp::~ServingGoApp() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

}  // namespace proflow::testing
