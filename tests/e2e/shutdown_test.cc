// SIGTERM stops the real daemon within service.shutdown_timeout even while a request is still being
// processed on a worker: shutdown never waits on a request without bound.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "tests/support/daemon.h"
#include "tests/support/profile_builder.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;

// A peer on 127.0.0.1 that takes connections and never answers on them.
class SilentPeer {
 public:
  SilentPeer() {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 || listen(fd_, 16) != 0 ||
        getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      ADD_FAILURE() << "cannot listen on 127.0.0.1";
    port_ = ntohs(addr.sin_port);
    fcntl(fd_, F_SETFL, O_NONBLOCK);
  }
  ~SilentPeer() {
    for (int c : accepted_) close(c);
    close(fd_);
  }
  int port() const { return port_; }
  // True once a client connected (the connection is kept open, unanswered).
  bool connected() {
    const int c = accept(fd_, nullptr, nullptr);
    if (c >= 0) accepted_.push_back(c);
    return !accepted_.empty();
  }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::vector<int> accepted_;
};

TEST(DaemonShutdown, SigtermStopsTheDaemonWhileARequestWaitsOnASilentPeer) {
  testing::TempDir dir;
  SilentPeer peer;
  const int http = testing::freePort(), metrics = testing::freePort();
  // No sending queue: the receiver's request waits on the exporter's send, which waits on the peer
  // for up to 10 minutes.
  const std::string cfg = dir.write("proflow.yaml", R"(
receivers:
  otlp: { protocols: { http: { endpoint: 127.0.0.1:)" + std::to_string(http) + R"( } } }
exporters:
  otlphttp:
    endpoint: http://127.0.0.1:)" + std::to_string(peer.port()) + R"(
    timeout: 10m
    sending_queue: { enabled: false }
    retry_on_failure: { enabled: false }
service:
  shutdown_timeout: 1s
  telemetry: { metrics: { address: 127.0.0.1:)" + std::to_string(metrics) + R"( } }
  pipelines: { profiles: { receivers: [otlp], exporters: [otlphttp] } }
)");
  testing::Daemon d({"--config", cfg}, dir.file("d.log"));
  ASSERT_TRUE(d.waitHealthy(metrics)) << d.log();

  testing::ProfileSpec p;
  p.samples = {{{"work", "main"}, 1}};
  const std::string body = testing::makeRequest("slow", {p}).SerializeAsString();
  testing::RawResponse answer;
  std::thread client([&] {
    answer = testing::rawPost(http, "/v1development/profiles", {{"Content-Type", "application/x-protobuf"}}, body, 120s);
  });
  // The request is in flight: the exporter holds a connection to the peer, which never answers.
  ASSERT_TRUE(testing::waitFor([&] { return peer.connected(); })) << d.log();

  EXPECT_EQ(d.terminate(60s), 0) << d.log();  // without the bound: after the exporter's 10 minutes
  client.join();
  EXPECT_EQ(answer.status, 0);  // the stuck request was left unanswered (its client retries)
  EXPECT_NE(d.log().find("left unfinished"), std::string::npos) << d.log();
}

}  // namespace
}  // namespace proflow
