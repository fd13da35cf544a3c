// Shutdown keeps its deadline while an exporter waits between retries or for an answer: the real
// OTLP/gRPC sender against a backend on a real socket that answers every call UNAVAILABLE (30 s
// back-off), or that never answers (30 s attempt timeout).
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "core/exporterhelper/exporter_helper.h"
#include "core/exporterhelper/otlp_grpc_sender.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "tests/support/daemon.h"
#include "tests/support/flat_request.h"
#include "tests/support/profile_builder.h"
#include "tests/support/stand_ins.h"

namespace proflow::exporterhelper {
namespace {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr auto kBackoff = 30s;

class Backend final : public collector::ProfilesService::Service {
 public:
  enum class Mode { kDown, kStalling };
  explicit Backend(Mode mode) : mode_(mode) {
    grpc::ServerBuilder b;
    b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    b.RegisterService(this);
    server_ = b.BuildAndStart();
  }
  ~Backend() override { server_->Shutdown(std::chrono::system_clock::now() + 1s); }

  grpc::Status Export(grpc::ServerContext* ctx, const otlp::Request*, otlp::Response*) override {
    if (mode_ == Mode::kStalling) {
      {
        std::lock_guard lock(mu_);
        ++stalled_;
        cv_.notify_all();
      }
      // Until the client gives up; bounded so a client that never does fails the test, not hangs it.
      for (auto until = Clock::now() + 60s; !ctx->IsCancelled() && Clock::now() < until;)
        std::this_thread::sleep_for(5ms);
    }
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "backend down");
  }
  bool waitForStalledCall() {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, 20s, [&] { return stalled_ > 0; });
  }
  int port() const { return port_; }

 private:
  Mode mode_;
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
  std::mutex mu_;
  std::condition_variable cv_;
  int stalled_ = 0;
};

class ShutdownDeadlineTest : public ::testing::Test {
 protected:
  std::unique_ptr<ExporterHelper> make(bool queued, const Backend& backend) {
    OtlpGrpcConfig c;
    c.endpoint = "http://127.0.0.1:" + std::to_string(backend.port());
    c.helper.timeout = kBackoff;
    c.compression = "none";
    c.helper.retry_on_failure.initial_interval = kBackoff;
    c.helper.retry_on_failure.max_interval = kBackoff;
    c.helper.retry_on_failure.randomization_factor = 0;
    c.helper.retry_on_failure.max_elapsed_time = 0s;  // retry until shutdown
    c.helper.sending_queue.enabled = queued;
    c.helper.sending_queue.num_consumers = 1;
    ExporterHelperConfig helper = c.helper;
    CreateSettings s{ComponentId{"otlp", ""}, ComponentKind::kExporter, spdlog::default_logger(), &telemetry_,
                     nullptr};
    return std::make_unique<ExporterHelper>(s, helper, std::make_unique<OtlpGrpcSender>(s, std::move(c)));
  }
  // True once the exporter waits out its back-off after the backend's first answer.
  bool inBackoff() {
    return ::proflow::testing::waitFor(
        [&] { return metrics_.value("proflow_exporter_send_retries_total", {{"exporter", "test"}}) == 1; },
        20s);
  }
  static Batch batch() { return ::proflow::testing::batchOf(testing::makeRequest("svc", {testing::makeProfile(3)})); }

  Backend down_{Backend::Mode::kDown};
  Backend stalling_{Backend::Mode::kStalling};
  telemetry::MetricsRegistry metrics_;
  telemetry::ComponentTelemetry telemetry_{metrics_, ComponentKind::kExporter, "test"};
  ::proflow::testing::NullHost host_;
};

// A behaviour bound, not a timing threshold: before the fix shutdown waited out the whole back-off.
constexpr auto kWellBeforeTheBackoffEnds = kBackoff / 2;

TEST_F(ShutdownDeadlineTest, ShutdownDuringQueuedRetryBackoffKeepsItsDeadline) {
  auto e = make(/*queued=*/true, down_);
  ASSERT_TRUE(e->start(host_).isOk());
  ASSERT_TRUE(e->consume(batch()).isOk());
  ASSERT_TRUE(inBackoff());
  const auto t0 = Clock::now();
  e->shutdown(t0 + 2s);
  EXPECT_LT(Clock::now() - t0, kWellBeforeTheBackoffEnds);
  EXPECT_EQ(metrics_.value("proflow_exporter_failed_batches_total", {{"exporter", "test"}}), 1);
}

TEST_F(ShutdownDeadlineTest, ShutdownEndsARetryBackoffInTheCallersThread) {
  auto e = make(/*queued=*/false, down_);
  ASSERT_TRUE(e->start(host_).isOk());
  auto sent = std::async(std::launch::async, [&] { return e->consume(batch()); });
  ASSERT_TRUE(inBackoff());
  const auto t0 = Clock::now();
  e->shutdown(t0 + 2s);
  ASSERT_EQ(sent.wait_for(kWellBeforeTheBackoffEnds), std::future_status::ready);
  EXPECT_LT(Clock::now() - t0, kWellBeforeTheBackoffEnds);
  EXPECT_EQ(sent.get().code(), StatusCode::kUnavailable);
}

TEST_F(ShutdownDeadlineTest, AnAttemptStillInFlightAtTheDeadlineIsCancelled) {
  auto e = make(/*queued=*/true, stalling_);
  ASSERT_TRUE(e->start(host_).isOk());
  ASSERT_TRUE(e->consume(batch()).isOk());
  ASSERT_TRUE(stalling_.waitForStalledCall());
  const auto t0 = Clock::now();
  e->shutdown(t0 + 1s);
  EXPECT_LT(Clock::now() - t0, kWellBeforeTheBackoffEnds);
  EXPECT_EQ(metrics_.value("proflow_exporter_failed_batches_total", {{"exporter", "test"}}), 1);
}

}  // namespace
}  // namespace proflow::exporterhelper
