#include "tests/brokers/nats_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <vector>

#include "tests/support/daemon.h"

namespace proflow::testing {
namespace {

bool accepts(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  close(fd);
  return ok;
}

}  // namespace

NatsServer::NatsServer(NatsServerSecurity security) : security_(std::move(security)), port_(freePort()) { start(); }

NatsServer::~NatsServer() { kill(); }

bool NatsServer::start() {
  std::vector<std::string> argv = {"nats-server", "-js", "-a", "127.0.0.1", "-p", std::to_string(port_),
                                   "-sd",         dir_.file("store")};
  if (!security_.user.empty()) argv.insert(argv.end(), {"--user", security_.user, "--pass", security_.password});
  if (!security_.cert_file.empty())
    argv.insert(argv.end(), {"--tls", "--tlscert", security_.cert_file, "--tlskey", security_.key_file});
  const std::string log_path = dir_.file("nats.log");
  pid_ = fork();
  if (pid_ == 0) {
    int fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  if (!waitFor([&] { return accepts(port_); }, std::chrono::seconds(15))) {
    kill();
    return false;
  }
  return true;
}

void NatsServer::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

std::string NatsServer::log() const { return readFile(dir_.file("nats.log")); }

}  // namespace proflow::testing
