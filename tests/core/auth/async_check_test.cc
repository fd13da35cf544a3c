// Receivers call ServerAuthenticator::authenticateAsync: a check that takes long (a password hash)
// holds neither the I/O thread nor a gRPC thread, so other listeners answer meanwhile; a check that
// could not be made is answered 503 / UNAVAILABLE with a retry hint, counted. The stand-in
// authenticator below blocks in authenticate() until the test releases it, as a slow hash would: a
// server calling it on its I/O thread would hold every other listener of that thread.
#include <gtest/gtest.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "core/auth/authenticator.h"
#include "core/component/factory_helpers.h"
#include "core/net/http_client.h"
#include "tests/core/net/http_test_util.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"

namespace proflow {
namespace {

// Where the stand-in's checks wait: tests see them arrive and let them go.
class Gate {
 public:
  void enter() {
    std::unique_lock lock(mu_);
    ++entered_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return open_; });
  }
  void waitForChecks(int n) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return entered_ >= n; });
  }
  void release() {
    std::lock_guard lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  static Gate& global() {
    static Gate gate;
    return gate;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int entered_ = 0;
  bool open_ = false;
};

struct GateAuthConfig {
  template <class V>
  void visit(V&) {}
  void validate(config::ValidationContext&) const {}
};

// "Bearer right" passes after the gate opens; "Bearer busy" is a check that cannot be made now;
// anything else is refused after the gate. Checks run on threads of the extension's own.
class GateAuth final : public Extension, public auth::ServerAuthenticator {
 public:
  ~GateAuth() override { shutdown({}); }
  Status start(Host&) override { return Status::ok(); }
  void shutdown(Deadline) override {
    Gate::global().release();
    std::lock_guard lock(mu_);
    for (auto& t : threads_) t.join();
    threads_.clear();
  }
  Status authenticate(const auth::HeaderLookup& header) const override {
    auto value = header("authorization");
    return check(value ? std::optional<std::string>(*value) : std::nullopt);
  }
  void authenticateAsync(const auth::HeaderLookup& header, std::string_view, std::function<void(Status)> done) const override {
    auto value = header("authorization");
    if (value && *value == "Bearer busy")
      return done(Status::unavailable("checks are full").withRetryAfter(std::chrono::seconds(2)));
    std::lock_guard lock(mu_);
    threads_.emplace_back([this, v = value ? std::optional<std::string>(*value) : std::nullopt, done] { done(check(v)); });
  }
  std::string challenge() const override { return "Bearer realm=\"gate\""; }

 private:
  static Status check(const std::optional<std::string>& value) {
    Gate::global().enter();
    if (value && *value == "Bearer right") return Status::ok();
    return Status(StatusCode::kUnauthenticated, "invalid token");
  }
  mutable std::mutex mu_;
  mutable std::vector<std::thread> threads_;
};

class GateAuthFactory final : public ExtensionFactoryFor<GateAuthConfig> {
 public:
  std::string_view type() const override { return "gateauth"; }
  std::string_view description() const override { return "test authenticator whose checks wait for the test"; }
  bool isAuthenticator() const override { return true; }

 protected:
  std::unique_ptr<Extension> createExtension(const CreateSettings&, const GateAuthConfig&) const override {
    return std::make_unique<GateAuth>();
  }
};

constexpr const char* kExport = "/opentelemetry.proto.collector.profiles.v1development.ProfilesService/Export";

class AsyncCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    gated_http_ = testing::freePort();
    gated_grpc_ = testing::freePort();
    open_http_ = testing::freePort();
    auto ep = [](int port) { return "\"127.0.0.1:" + std::to_string(port) + "\""; };
    std::vector<std::unique_ptr<Factory>> extra;
    extra.push_back(std::make_unique<GateAuthFactory>());
    service_ = testing::startService(R"(
extensions:
  gateauth: {}
receivers:
  otlp:
    protocols:
      http: { endpoint: )" + ep(gated_http_) + R"(, auth: { authenticator: gateauth } }
      grpc: { endpoint: )" + ep(gated_grpc_) + R"(, auth: { authenticator: gateauth } }
  otlp/open:
    protocols:
      http: { endpoint: )" + ep(open_http_) + R"( }
exporters: { debug: {} }
service:
  extensions: [gateauth]
  shutdown_timeout: 1s
  runtime: { io_threads: 1 }
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles: { receivers: [otlp, otlp/open], exporters: [debug] }
)",
                                     std::move(extra));
    ASSERT_TRUE(service_);
  }

  static std::string exportRequest(const std::string& authorization) {
    std::string head = "POST /v1development/profiles HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-protobuf\r\n";
    if (!authorization.empty()) head += "Authorization: " + authorization + "\r\n";
    return head + "Content-Length: 0\r\n\r\n";
  }

  // An Export of an empty request over gRPC, answered through the returned future.
  std::future<grpc::Status> grpcExport(const std::string& authorization) {
    auto call = std::make_shared<GrpcCall>(gated_grpc_);
    if (!authorization.empty()) call->ctx.AddMetadata("authorization", authorization);
    auto answer = call->answer.get_future();
    call->stub.UnaryCall(&call->ctx, kExport, grpc::StubOptions(), &call->request, &call->response,
                         [call](grpc::Status s) { call->answer.set_value(s); });
    calls_.push_back(call);
    return answer;
  }

  double rejected(const char* protocol, const char* reason) {
    return service_->metrics().value(std::string("proflow_receiver_") + protocol + "_rejected_requests_total",
                                     {{"receiver", "otlp"}, {"reason", reason}});
  }

  struct GrpcCall {
    explicit GrpcCall(int port)
        : stub(grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials())) {
      ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::minutes(2));
    }
    grpc::GenericStub stub;
    grpc::ClientContext ctx;
    grpc::Slice empty{""};
    grpc::ByteBuffer request{&empty, 1}, response;
    std::promise<grpc::Status> answer;
  };

  int gated_http_ = 0, gated_grpc_ = 0, open_http_ = 0;
  std::unique_ptr<Service> service_;
  std::vector<std::shared_ptr<GrpcCall>> calls_;
};

TEST_F(AsyncCheckTest, OtherListenersAnswerWhileChecksWait) {
  // Two checks wait: an HTTP request's and a gRPC call's.
  net::testing::RawConn waiting_http(static_cast<uint16_t>(gated_http_));
  waiting_http.send(exportRequest("Bearer right"));
  Gate::global().waitForChecks(1);
  auto waiting_grpc = grpcExport("Bearer right");
  Gate::global().waitForChecks(2);

  // The one I/O thread serves another listener meanwhile, and so does the gRPC server.
  net::testing::RawConn other(static_cast<uint16_t>(open_http_));
  other.send(exportRequest(""));
  auto answered = other.read();
  ASSERT_TRUE(answered);
  EXPECT_EQ(answered->status, 200) << answered->body;
  auto refused_at_once = grpcExport("Bearer busy").get();
  EXPECT_EQ(refused_at_once.error_code(), grpc::StatusCode::UNAVAILABLE) << refused_at_once.error_message();
  net::testing::RawConn busy(static_cast<uint16_t>(gated_http_));
  busy.send(exportRequest("Bearer busy"));
  auto unavailable = busy.read();
  ASSERT_TRUE(unavailable);
  EXPECT_EQ(unavailable->status, 503);
  EXPECT_EQ(unavailable->headers["Retry-After"], "2");
  EXPECT_EQ(rejected("http", "auth_unavailable"), 1);
  EXPECT_EQ(rejected("grpc", "auth_unavailable"), 1);
  EXPECT_EQ(waiting_grpc.wait_for(std::chrono::seconds(0)), std::future_status::timeout)
      << "the gRPC call was answered before its check";

  // Released, the waiting checks pass and their requests go on to the pipeline.
  Gate::global().release();
  auto first = waiting_http.read();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, 200) << first->body;
  grpc::Status grpc_answer = waiting_grpc.get();
  EXPECT_TRUE(grpc_answer.ok()) << grpc_answer.error_message();
  EXPECT_EQ(grpcExport("Bearer wrong").get().error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(rejected("grpc", "unauthenticated"), 1);
}

}  // namespace
}  // namespace proflow
