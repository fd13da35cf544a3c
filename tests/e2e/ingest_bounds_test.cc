// The daemon's receivers bound memory before work is done: a gRPC gzip bomb is refused while it is
// inflated (not after), an anonymous large gRPC message before it is read, measured on the real
// process's peak RSS.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/e2e/otlp_client.h"
#include "tests/support/daemon.h"
#include "tests/support/large_pprof.h"
#include "tests/support/raw_http.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

// VmHWM (peak resident set) of a process, in bytes; 0 when unreadable.
uint64_t peakRss(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  }
  return 0;
}

TEST(IngestBounds, GrpcGzipBombIsRefusedWhileInflatingWithSmallRssGrowth) {
  testing::TempDir dir;
  const int grpc_port = testing::freePort(), metrics_port = testing::freePort();
  const std::string config =
      "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:" + std::to_string(grpc_port) +
      ", max_recv_msg_size: 4MiB } } } }\n"
      "exporters: { debug: {} }\n"
      "service:\n  telemetry: { metrics: { address: 127.0.0.1:" + std::to_string(metrics_port) + " } }\n" +
      "  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }\n";
  testing::Daemon daemon({"--config", dir.write("bomb.yaml", config)}, dir.file("daemon.log"));
  ASSERT_TRUE(daemon.waitHealthy(metrics_port)) << daemon.log();
  ASSERT_TRUE(testing::exportTo(grpc_port, testing::makeRequest("warm-up", {testing::makeProfile(10)})).ok());
  const uint64_t before = peakRss(daemon.pid());
  ASSERT_GT(before, 0u);

  // 256 MiB of one byte: about 256 KiB once gzip'd by the client, 64x the 4 MiB limit once inflated.
  otlp::Request bomb;
  bomb.mutable_dictionary()->add_string_table(std::string(256u << 20, 'a'));
  grpc::Status s = testing::exportTo(grpc_port, bomb, std::chrono::seconds(60), GRPC_COMPRESS_GZIP);
  bomb.Clear();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
  EXPECT_NE(s.error_message().find("max_recv_msg_size"), std::string::npos) << s.error_message();

  // gRPC's own inflation would have held the whole 256 MiB before refusing it.
  const uint64_t growth = peakRss(daemon.pid()) - before;
  EXPECT_LT(growth, 64u << 20) << "peak RSS grew by " << (growth >> 20) << " MiB";

  // Still serving, and a gzip'd request of honest size is inflated and accepted.
  EXPECT_TRUE(testing::exportTo(grpc_port, testing::makeRequest("after", {testing::makeProfile(50)}),
                                std::chrono::seconds(10), GRPC_COMPRESS_GZIP)
                  .ok());
  EXPECT_EQ(daemon.terminate(), 0) << daemon.log();
}

// Credentials are checked on a call's metadata before its message is read: an anonymous 200 MiB
// message (within max_recv_msg_size) is refused without the daemon holding it. gRPC reads a unary
// request whole before its handler runs, so checking there meant buffering it first.
TEST(IngestBounds, GrpcAnonymousLargeMessageIsRefusedBeforeItIsBuffered) {
  testing::TempDir dir;
  const int grpc_port = testing::freePort(), metrics_port = testing::freePort();
  const std::string config =
      "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:" + std::to_string(grpc_port) +
      ", max_recv_msg_size: 256MiB, auth: { authenticator: bearertokenauth } } } } }\n"
      "extensions: { bearertokenauth: { token: large-secret } }\n"
      "exporters: { debug: {} }\n"
      "service:\n  extensions: [bearertokenauth]\n"
      "  telemetry: { metrics: { address: 127.0.0.1:" + std::to_string(metrics_port) + " } }\n" +
      "  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }\n";
  testing::Daemon daemon({"--config", dir.write("anon.yaml", config)}, dir.file("daemon.log"));
  ASSERT_TRUE(daemon.waitHealthy(metrics_port)) << daemon.log();
  const std::vector<std::pair<std::string, std::string>> token = {{"authorization", "Bearer large-secret"}};
  ASSERT_TRUE(testing::exportTo(grpc_port, testing::makeRequest("warm-up", {testing::makeProfile(10)}),
                                std::chrono::seconds(10), GRPC_COMPRESS_NONE, token)
                  .ok());
  const uint64_t before = peakRss(daemon.pid());
  ASSERT_GT(before, 0u);

  otlp::Request large;
  large.mutable_dictionary()->add_string_table(std::string(200u << 20, 'a'));
  grpc::Status s = testing::exportTo(grpc_port, large, std::chrono::seconds(60));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED) << s.error_message();
  large.Clear();

  const uint64_t growth = peakRss(daemon.pid()) - before;
  EXPECT_LT(growth, 32u << 20) << "peak RSS grew by " << (growth >> 20) << " MiB";
  // The same listener still serves a client with the token.
  EXPECT_TRUE(testing::exportTo(grpc_port, testing::makeRequest("after", {testing::makeProfile(10)}),
                                std::chrono::seconds(10), GRPC_COMPRESS_NONE, token)
                  .ok());
  EXPECT_EQ(daemon.terminate(), 0) << daemon.log();
}

// Four uploads that declare the largest body the OTLP receiver takes (64 MiB: together the half of
// the default 512 MiB budget that bodies may use) and then send a byte now and then. A body's memory
// is claimed as it arrives, so they hold their first 4 MiB buffers, not 256 MiB, and every normal
// request, HTTP and gRPC, is accepted while they stay open.
TEST(IngestBounds, StalledLargeUploadsDoNotLockOutNormalRequests) {
  testing::TempDir dir;
  const int http_port = testing::freePort(), grpc_port = testing::freePort(), metrics_port = testing::freePort();
  const std::string config =
      "receivers: { otlp: { protocols: { http: { endpoint: 127.0.0.1:" + std::to_string(http_port) +
      " }, grpc: { endpoint: 127.0.0.1:" + std::to_string(grpc_port) + " } } } }\n"
      "exporters: { debug: {} }\n"
      "service:\n  telemetry: { metrics: { address: 127.0.0.1:" + std::to_string(metrics_port) + " } }\n" +
      "  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }\n";
  testing::Daemon daemon({"--config", dir.write("stall.yaml", config)}, dir.file("daemon.log"));
  ASSERT_TRUE(daemon.waitHealthy(metrics_port)) << daemon.log();

  std::vector<int> stalled;
  const std::string head = testing::requestHead("POST", "/v1development/profiles",
                                                {{"Content-Type", "application/x-protobuf"}}, 64u << 20);
  for (int i = 0; i < 4; ++i) {
    int fd = testing::connectLoopback(http_port);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::send(fd, head.data(), head.size(), MSG_NOSIGNAL), static_cast<ssize_t>(head.size()));
    ASSERT_EQ(::send(fd, "\x0a", 1, MSG_NOSIGNAL), 1);
    stalled.push_back(fd);
  }
  std::string body;
  ASSERT_TRUE(testing::makeRequest("normal", {testing::makeProfile(20)}).SerializeToString(&body));
  for (int round = 0; round < 5; ++round) {
    for (int fd : stalled) EXPECT_EQ(::send(fd, "\x0a", 1, MSG_NOSIGNAL), 1) << "a stalled upload was closed";
    for (int i = 0; i < 4; ++i) {
      testing::RawResponse r =
          testing::rawPost(http_port, "/v1development/profiles", {{"Content-Type", "application/x-protobuf"}}, body);
      EXPECT_EQ(r.status, 200) << r.headers << r.body;
      grpc::Status g = testing::exportTo(grpc_port, testing::makeRequest("normal", {testing::makeProfile(20)}));
      EXPECT_TRUE(g.ok()) << g.error_message();
    }
  }
  for (int fd : stalled) ::close(fd);
  EXPECT_EQ(daemon.terminate(), 0) << daemon.log();
}

// More bodies than the in-flight budget holds, each needing several times its size to convert, sent
// by clients that retry on 429 as real ones do. When bodies could fill the whole budget, every
// conversion's claim was refused while the crowd kept it full, and nothing was ever accepted; now
// every request gets through, one decode at a time if need be.
TEST(IngestBounds, ACrowdOfLargeBodiesAllGetThroughWhenRetried) {
  testing::TempDir dir;
  const int pprof_port = testing::freePort(), metrics_port = testing::freePort();
  const std::string config =
      "receivers: { pprof: { endpoint: 127.0.0.1:" + std::to_string(pprof_port) +
      ", max_request_body_size: 8MiB, max_in_flight_bytes: 48MiB } }\n"
      "exporters: { debug: {} }\n"
      "service:\n  telemetry: { metrics: { address: 127.0.0.1:" + std::to_string(metrics_port) + " } }\n" +
      "  pipelines: { profiles: { receivers: [pprof], exporters: [debug] } }\n";
  testing::Daemon daemon({"--config", dir.write("crowd.yaml", config)}, dir.file("daemon.log"));
  ASSERT_TRUE(daemon.waitHealthy(metrics_port)) << daemon.log();

  const std::string body = testing::cpuShapedPprof(2u << 20);  // converting it claims several times that
  constexpr int kClients = 32;                                  // 64 MiB of bodies for a 48 MiB budget
  std::atomic<int> accepted{0}, retried{0};
  std::vector<int> last(kClients, 0);
  std::vector<std::thread> crowd;
  for (int i = 0; i < kClients; ++i)
    crowd.emplace_back([&, i] {
      for (int attempt = 0; attempt < 1200; ++attempt) {
        testing::RawResponse r = testing::rawPost(pprof_port, "/v1/pprof?service.name=crowd", {}, body);
        last[static_cast<size_t>(i)] = r.status;
        if (r.status != 429) break;
        ++retried;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));  // Retry-After, shortened
      }
      if (last[static_cast<size_t>(i)] == 200) ++accepted;
    });
  for (auto& t : crowd) t.join();
  for (int i = 0; i < kClients; ++i) EXPECT_EQ(last[static_cast<size_t>(i)], 200) << "client " << i;
  EXPECT_EQ(accepted.load(), kClients) << retried.load() << " answers 429 were retried";
  EXPECT_EQ(daemon.terminate(), 0) << daemon.log();
}

}  // namespace
}  // namespace proflow
