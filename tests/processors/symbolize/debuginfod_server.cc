#include "tests/processors/symbolize/debuginfod_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "tests/processors/symbolize/test_programs.h"
#include "tests/support/temp_dir.h"

namespace proflow::symbolize::testing {
namespace {

// A port the kernel just handed out for 127.0.0.1 (debuginfod has no "port 0" mode).
int freePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  close(fd);
  return port;
}

}  // namespace

DebuginfodServer::DebuginfodServer(const std::string& dir, const std::string& work_dir) {
  port_ = freePort();
  log_path_ = work_dir + "/debuginfod.log";
  const std::string db = work_dir + "/debuginfod.sqlite";
  const std::string port = std::to_string(port_);
  pid_ = fork();
  if (pid_ == 0) {
    int fd = open(log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    unsetenv("DEBUGINFOD_URLS");  // no federation to real servers
    execlp("debuginfod", "debuginfod", "-F", "-p", port.c_str(), "-d", db.c_str(), "-g", "0", "-t", "0",
           dir.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
}

DebuginfodServer::~DebuginfodServer() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
}

bool DebuginfodServer::waitFor(const std::string& build_id, const char* kind) {
  const std::string cmd = "curl -sf -o /dev/null " + url() + "/buildid/" + build_id + "/" + kind;
  for (int i = 0; i < 300; ++i) {
    if (run(cmd).status == 0) return true;
    if (pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == pid_) {
      pid_ = -1;
      return false;  // the server died (see log())
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

std::string DebuginfodServer::log() const { return proflow::testing::readFile(log_path_); }

}  // namespace proflow::symbolize::testing
