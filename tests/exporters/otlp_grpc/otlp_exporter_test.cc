// The otlp exporter in a running Service (otlp receiver -> otlp_grpc exporter) against a gateway written
// here from the generated ProfilesService, over a real gRPC socket: what arrives, and which answers
// are retried, given up on or partly accepted, as exporters/otlp_grpc/README.md promises.
#include <google/protobuf/util/message_differencer.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "google/rpc/status.pb.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "tests/e2e/otlp_client.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/profile_builder.h"

namespace proflow {
namespace {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;
using google::protobuf::util::MessageDifferencer;
using namespace std::chrono_literals;

// How the gateway answers one call; calls past the script are answered OK.
struct Answer {
  grpc::Status status;
  int64_t rejected_profiles = 0;  // partial success
  bool stall = false;             // hold the call until the client gives up on it
};

// What the gateway saw of one call.
struct Call {
  otlp::Request request;
  std::multimap<std::string, std::string> metadata;
  bool cancelled = false;  // the client abandoned the call (its deadline passed)
  bool ok = false;         // answered OK (delivered)
};

class FakeGateway final : public collector::ProfilesService::Service {
 public:
  // A gateway that does not accept gzip refuses a gzip call in gRPC itself (UNIMPLEMENTED) before
  // Export runs: how a test sees the request's grpc-encoding, which gRPC keeps out of the metadata
  // it hands to the service.
  explicit FakeGateway(bool accept_gzip = true) {
    grpc::ServerBuilder b;
    if (!accept_gzip) b.SetCompressionAlgorithmSupportStatus(GRPC_COMPRESS_GZIP, false);
    b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    b.RegisterService(this);
    server_ = b.BuildAndStart();
  }
  ~FakeGateway() override { server_->Shutdown(); }

  grpc::Status Export(grpc::ServerContext* ctx, const otlp::Request* req, otlp::Response* resp) override {
    Answer answer;
    size_t index = 0;
    {
      // Recorded on arrival, so a retry that lands while a stalled call is still held comes second.
      std::lock_guard lock(mu_);
      if (!script_.empty()) {
        answer = script_.front();
        script_.pop_front();
      }
      index = calls_.size();
      Call& call = calls_.emplace_back();
      call.request = *req;
      for (const auto& [k, v] : ctx->client_metadata())
        call.metadata.emplace(std::string(k.data(), k.size()), std::string(v.data(), v.size()));
    }
    if (answer.stall) {
      // Bounded so a client that never gives up fails the test instead of hanging it.
      for (auto until = std::chrono::steady_clock::now() + 10s;
           !ctx->IsCancelled() && std::chrono::steady_clock::now() < until;)
        std::this_thread::sleep_for(5ms);
    }
    if (answer.rejected_profiles > 0) {
      resp->mutable_partial_success()->set_rejected_profiles(answer.rejected_profiles);
      resp->mutable_partial_success()->set_error_message("profile 1 has no samples");
    }
    std::lock_guard lock(mu_);
    calls_[index].cancelled = ctx->IsCancelled();
    calls_[index].ok = answer.status.ok() && !calls_[index].cancelled;
    return answer.status;
  }

  int port() const { return port_; }
  void script(std::deque<Answer> answers) {
    std::lock_guard lock(mu_);
    script_ = std::move(answers);
  }
  std::vector<Call> calls() {
    std::lock_guard lock(mu_);
    return calls_;
  }
  std::vector<otlp::Request> delivered() {
    std::vector<otlp::Request> out;
    for (const auto& c : calls())
      if (c.ok) out.push_back(c.request);
    return out;
  }

 private:
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
  std::mutex mu_;
  std::deque<Answer> script_;
  std::vector<Call> calls_;
};

// Two profiles, so profile counters differ from batch counters.
otlp::Request sample() {
  testing::ProfileSpec p;
  p.samples = {{{"leaf", "mid", "main"}, 10}, {{"other", "main"}, 3}};
  return testing::makeRequest("checkout", {p, testing::makeProfile(20, 1)});
}

// A RESOURCE_EXHAUSTED as an OTLP server sends it when it wants the client back later: a
// google.rpc.Status with a packed RetryInfo in grpc-status-details-bin.
grpc::Status exhaustedWithRetryInfo() {
  google::rpc::RetryInfo info;
  info.mutable_retry_delay()->set_nanos(10'000'000);  // 10 ms
  google::rpc::Status details;
  details.set_code(grpc::StatusCode::RESOURCE_EXHAUSTED);
  details.set_message("rate limited");
  details.add_details()->PackFrom(info);
  return {grpc::StatusCode::RESOURCE_EXHAUSTED, "rate limited", details.SerializeAsString()};
}

class OtlpExporterTest : public ::testing::Test {
 protected:
  // One sender so calls reach the gateway one at a time; 10 ms retries keep the test fast.
  std::unique_ptr<Service> start(const std::string& exporter_extra = "") { return startTo(gateway_, exporter_extra); }
  std::unique_ptr<Service> startTo(FakeGateway& gateway, const std::string& exporter_extra) {
    receiver_port_ = testing::freePort();
    return testing::startService(
        "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:" + std::to_string(receiver_port_) + " } } } }\n"
        "exporters:\n  otlp:\n    endpoint: 127.0.0.1:" + std::to_string(gateway.port()) +
        "\n    tls: { insecure: true }\n    sending_queue: { num_consumers: 1 }\n"
        "    retry_on_failure: { initial_interval: 10ms, max_interval: 50ms }\n" + exporter_extra +
        "service:\n  shutdown_timeout: 5s\n  telemetry: { metrics: { address: \"127.0.0.1:0\" } }\n"
        "  pipelines: { profiles: { receivers: [otlp], exporters: [otlp] } }\n");
  }
  // The receiver answers once the exporter queued the batch; Service::shutdown() then waits for the
  // sender to finish every attempt, so afterwards the gateway's calls and the counters are final
  // (no retry can still be pending, which "exactly one call" relies on).
  void sendAndDrain(Service& service, const std::vector<otlp::Request>& requests) {
    for (const auto& r : requests) ASSERT_TRUE(testing::exportTo(receiver_port_, r).ok());
    service.shutdown();
  }
  static double counter(Service& service, const std::string& name) {
    return service.metrics().value("proflow_exporter_" + name + "_total", {{"exporter", "otlp"}});
  }

  FakeGateway gateway_;
  int receiver_port_ = 0;
};

class OtlpExporterDeliveryTest : public OtlpExporterTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(OtlpExporterDeliveryTest, DeliversTheRequestUnchangedWithHeadersAsMetadata) {
  auto service = start(std::string("    compression: ") + GetParam() +
                       "\n    headers: { x-scope-orgid: tenant-1, x-team: profiling }\n");
  ASSERT_TRUE(service);
  sendAndDrain(*service, {sample()});
  auto calls = gateway_.calls();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_TRUE(MessageDifferencer::Equals(calls[0].request, sample())) << calls[0].request.DebugString();
  const auto& md = calls[0].metadata;
  auto values = [&](const std::string& key) {
    std::vector<std::string> out;
    for (auto [it, end] = md.equal_range(key); it != end; ++it) out.push_back(it->second);
    return out;
  };
  EXPECT_EQ(values("x-scope-orgid"), std::vector<std::string>{"tenant-1"});
  EXPECT_EQ(values("x-team"), std::vector<std::string>{"profiling"});
  EXPECT_EQ(counter(*service, "sent_batches"), 1);
  EXPECT_EQ(counter(*service, "sent_profiles"), 2);
  EXPECT_EQ(counter(*service, "failed_batches"), 0);
}

INSTANTIATE_TEST_SUITE_P(Compression, OtlpExporterDeliveryTest, ::testing::Values("gzip", "none"));

TEST_F(OtlpExporterTest, CompressionGzipSendsGzipAndNoneDoesNot) {
  FakeGateway no_gzip(/*accept_gzip=*/false);
  auto gzip = startTo(no_gzip, "    compression: gzip\n");
  ASSERT_TRUE(gzip);
  sendAndDrain(*gzip, {sample()});
  EXPECT_EQ(no_gzip.calls().size(), 0u) << "a gzip-encoded call must be refused by a server without gzip";
  EXPECT_EQ(counter(*gzip, "failed_batches"), 1);

  auto none = startTo(no_gzip, "    compression: none\n");
  ASSERT_TRUE(none);
  sendAndDrain(*none, {sample()});
  EXPECT_EQ(no_gzip.delivered().size(), 1u) << "an uncompressed call must get through";
  EXPECT_EQ(counter(*none, "sent_batches"), 1);
}

// One error answer, then OK: retryable answers are tried again and delivered once; the others are
// given up on after the one call and counted failed (2 profiles in sample()).
struct ErrorCase {
  const char* name;
  grpc::Status answer;
  bool retried;
};

class OtlpExporterErrorTest : public OtlpExporterTest, public ::testing::WithParamInterface<ErrorCase> {};

TEST_P(OtlpExporterErrorTest, RetriesOnlyWhatOtlpCallsRetryable) {
  const ErrorCase& c = GetParam();
  gateway_.script({{c.answer}});
  auto service = start();
  ASSERT_TRUE(service);
  sendAndDrain(*service, {sample()});
  EXPECT_EQ(gateway_.calls().size(), c.retried ? 2u : 1u);
  auto delivered = gateway_.delivered();
  ASSERT_EQ(delivered.size(), c.retried ? 1u : 0u);
  if (c.retried) {
    EXPECT_TRUE(MessageDifferencer::Equals(delivered[0], sample()));
  }
  EXPECT_EQ(counter(*service, "sent_batches"), c.retried ? 1 : 0);
  EXPECT_EQ(counter(*service, "sent_profiles"), c.retried ? 2 : 0);
  EXPECT_EQ(counter(*service, "failed_batches"), c.retried ? 0 : 1);
  EXPECT_EQ(counter(*service, "failed_profiles"), c.retried ? 0 : 2);
}

INSTANTIATE_TEST_SUITE_P(
    Answers, OtlpExporterErrorTest,
    ::testing::Values(ErrorCase{"Unavailable", {grpc::StatusCode::UNAVAILABLE, "restarting"}, true},
                      ErrorCase{"InvalidArgument", {grpc::StatusCode::INVALID_ARGUMENT, "bad stack index"}, false},
                      // OTLP: without RetryInfo the data will never fit, so trying again cannot help.
                      ErrorCase{"ResourceExhaustedWithoutRetryInfo",
                                {grpc::StatusCode::RESOURCE_EXHAUSTED, "message too large"}, false},
                      ErrorCase{"ResourceExhaustedWithRetryInfo", exhaustedWithRetryInfo(), true}),
    [](const ::testing::TestParamInfo<ErrorCase>& info) { return std::string(info.param.name); });

TEST_F(OtlpExporterTest, PartialSuccessIsNotRetriedAndItsRejectedProfilesCountAsFailed) {
  gateway_.script({{grpc::Status::OK, /*rejected_profiles=*/1}});
  auto service = start();
  ASSERT_TRUE(service);
  sendAndDrain(*service, {sample()});
  EXPECT_EQ(gateway_.calls().size(), 1u);
  EXPECT_EQ(counter(*service, "failed_profiles"), 1);
  EXPECT_EQ(counter(*service, "sent_batches"), 1);
  EXPECT_EQ(counter(*service, "failed_batches"), 0);  // the batch was delivered: only its rejected profiles failed
}

TEST_F(OtlpExporterTest, BatchOverMaxRequestSizeIsNeverSentAndCountedFailed) {
  otlp::Request big = sample();
  auto* attr = big.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
  attr->set_key("padding");
  attr->mutable_value()->set_string_value(std::string(8192, 'x'));
  ASSERT_LT(sample().ByteSizeLong(), 4096u);
  auto service = start("    max_request_size: 4KiB\n");
  ASSERT_TRUE(service);
  // The small one after it shows the gateway was reachable: only the big one was held back.
  sendAndDrain(*service, {big, sample()});
  auto calls = gateway_.calls();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_TRUE(MessageDifferencer::Equals(calls[0].request, sample()));
  EXPECT_EQ(counter(*service, "failed_batches"), 1);
  EXPECT_EQ(counter(*service, "sent_batches"), 1);
}

TEST_F(OtlpExporterTest, ServerSlowerThanTimeoutIsRetried) {
  gateway_.script({{grpc::Status::OK, 0, /*stall=*/true}});
  auto service = start("    timeout: 500ms\n");
  ASSERT_TRUE(service);
  sendAndDrain(*service, {sample()});
  auto calls = gateway_.calls();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_TRUE(calls[0].cancelled) << "the first attempt must end at its deadline (DEADLINE_EXCEEDED)";
  EXPECT_TRUE(calls[1].ok);
  EXPECT_EQ(counter(*service, "sent_batches"), 1);
  EXPECT_EQ(counter(*service, "failed_batches"), 0);
}

}  // namespace
}  // namespace proflow
