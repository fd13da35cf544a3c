// OTLP/gRPC concurrency slots are shared fairly: a connection that opens many Export calls and
// stalls them holds at most its share, and a stalled call gives its slot back after a deadline.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <thread>

#include "core/model/otlp_types.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/receivers/otlp/stalling_h2_client.h"
#include "tests/support/daemon.h"

namespace proflow {
namespace {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;

class OtlpGrpcFairnessTest : public ::testing::Test {
 protected:
  // With `tokens`, the listener authenticates with bearertokenauth accepting them.
  std::unique_ptr<Service> start(const std::string& grpc_extra = "", const std::string& tokens = "") {
    port_ = testing::freePort();
    const bool auth = !tokens.empty();
    return testing::startService((auth ? "extensions: { bearertokenauth: { tokens: [" + tokens + "] } }\n" : "") + R"(
receivers:
  otlp:
    protocols:
      grpc:
        endpoint: 127.0.0.1:)" + std::to_string(port_) + "\n" +
                                 grpc_extra + (auth ? "        auth: { authenticator: bearertokenauth }\n" : "") + R"(
exporters:
  debug: { verbosity: basic }
service:
)" + (auth ? "  extensions: [bearertokenauth]\n" : "") + R"(  shutdown_timeout: 1s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles: { receivers: [otlp], exporters: [debug] }
)");
  }

  grpc::Status exportOnce(const std::string& authorization = "") {
    auto stub = collector::ProfilesService::NewStub(
        grpc::CreateChannel("127.0.0.1:" + std::to_string(port_), grpc::InsecureChannelCredentials()));
    grpc::ClientContext ctx;
    if (!authorization.empty()) ctx.AddMetadata("authorization", authorization);
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    otlp::Response response;
    return stub->Export(&ctx, otlp::Request(), &response);
  }

  // Waits (bounded, for a broken build not to hang) until the watchdog has cancelled `calls` calls.
  static bool waitStalled(Service& service, const char* phase, int calls) {
    for (int i = 0; i < 3000; ++i) {
      if (service.metrics().value("proflow_receiver_grpc_stalled_calls_total",
                                  {{"receiver", "otlp"}, {"phase", phase}}) >= calls)
        return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }

  // Four calls that take every slot and stall in `phase` ("write": their answers are never taken;
  // "read": their messages never come) give their slots back after `timeout_key`, while their
  // connection stays open: another client's export then goes through.
  void expectStalledCallsFreeTheirSlots(const char* phase, const char* timeout_key) {
    auto service = start(std::string(R"(        max_concurrent_requests: 4
        max_concurrent_requests_per_connection: 4
        max_concurrent_requests_per_client: 4
        )") + timeout_key + ": 200ms\n");
    ASSERT_TRUE(service);
    testing::StallingH2Client hog(port_);
    ASSERT_TRUE(hog.connected());
    const bool write_phase = std::string_view(phase) == "write";
    hog.openCalls(4, /*send_message=*/write_phase);
    if (write_phase) {
      EXPECT_EQ(hog.waitDecided(), 0) << "all four admitted, their answers stuck";
    }
    ASSERT_TRUE(waitStalled(*service, phase, 4));
    grpc::Status s = exportOnce();
    EXPECT_TRUE(s.ok()) << s.error_code() << " " << s.error_message();
  }

  int port_ = 0;
};

// 64 calls (the whole default max_concurrent_requests) on one connection that never takes its
// answers: the connection gets its share (16) and the other calls are refused on it, while another
// client's exports all go through.
TEST_F(OtlpGrpcFairnessTest, OneStallingConnectionCannotTakeEverySlot) {
  auto service = start();
  ASSERT_TRUE(service);
  testing::StallingH2Client hog(port_);
  ASSERT_TRUE(hog.connected());
  hog.openCalls(64, /*send_message=*/true);
  const int refused = hog.waitDecided();
  EXPECT_EQ(refused, 64 - 16) << "calls refused on the stalling connection beyond its share";
  for (int i = 0; i < 20; ++i) {
    grpc::Status s = exportOnce();
    ASSERT_TRUE(s.ok()) << "export " << i << ": " << s.error_code() << " " << s.error_message();
  }
}

TEST_F(OtlpGrpcFairnessTest, ACallWhoseAnswerIsNeverTakenFreesItsSlot) {
  expectStalledCallsFreeTheirSlots("write", "write_response_timeout");
}

TEST_F(OtlpGrpcFairnessTest, ACallWhoseMessageNeverComesFreesItsSlot) {
  expectStalledCallsFreeTheirSlots("read", "read_message_timeout");
}

// Without authentication a client is its address: its connections together hold at most half the
// slots, so another connection from it is refused past that while the listener has room.
TEST_F(OtlpGrpcFairnessTest, ConnectionsOfOneAddressShareItsHalf) {
  auto service = start(R"(        max_concurrent_requests: 8
        max_concurrent_requests_per_connection: 4
)");
  ASSERT_TRUE(service);
  testing::StallingH2Client first(port_), second(port_);
  first.openCalls(4, true);
  EXPECT_EQ(first.waitDecided(), 0);
  second.openCalls(4, true);
  EXPECT_EQ(second.waitDecided(), 4) << "127.0.0.1 already holds its 4 (half of 8)";
  grpc::Status s = exportOnce();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(s.error_message().find("max_concurrent_requests_per_client"), std::string::npos) << s.error_message();
}

// With auth, a client is its credential over however many connections, and calls without valid
// credentials take no slot at all.
TEST_F(OtlpGrpcFairnessTest, AnAuthenticatedClientsConnectionsShareItsHalfAndAnonymousCallsHoldNone) {
  auto service = start(R"(        max_concurrent_requests: 8
        max_concurrent_requests_per_connection: 4
)", "agent-a, agent-b");
  ASSERT_TRUE(service);
  testing::StallingH2Client anonymous(port_), a1(port_), a2(port_);
  anonymous.openCalls(8, true);
  EXPECT_EQ(anonymous.waitDecided(), 8) << "refused UNAUTHENTICATED, holding nothing";
  a1.openCalls(4, true, "Bearer agent-a");
  EXPECT_EQ(a1.waitDecided(), 0);
  a2.openCalls(4, true, "Bearer agent-a");
  EXPECT_EQ(a2.waitDecided(), 4) << "agent-a already holds its 4 (half of 8) on another connection";
  EXPECT_TRUE(exportOnce("Bearer agent-b").ok()) << "another credential from the same address";
  grpc::Status s = exportOnce("Bearer agent-a");
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(s.error_message().find("max_concurrent_requests_per_client"), std::string::npos) << s.error_message();
}

}  // namespace
}  // namespace proflow
