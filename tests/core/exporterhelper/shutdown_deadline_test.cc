// Shutdown keeps its deadline while an exporter waits between retries: the real OTLP/gRPC sender
// against a backend on a real socket that answers every call UNAVAILABLE, with a 30 s back-off.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <future>

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

class DownBackend final : public collector::ProfilesService::Service {
 public:
  DownBackend() {
    grpc::ServerBuilder b;
    b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    b.RegisterService(this);
    server_ = b.BuildAndStart();
  }
  ~DownBackend() override { server_->Shutdown(std::chrono::system_clock::now() + 1s); }

  grpc::Status Export(grpc::ServerContext*, const otlp::Request*, otlp::Response*) override {
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "backend down");
  }
  int port() const { return port_; }

 private:
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

class ShutdownDeadlineTest : public ::testing::Test {
 protected:
  std::unique_ptr<ExporterHelper> make(bool queued) {
    OtlpGrpcConfig c;
    c.endpoint = "http://127.0.0.1:" + std::to_string(backend_.port());
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

  DownBackend backend_;
  telemetry::MetricsRegistry metrics_;
  telemetry::ComponentTelemetry telemetry_{metrics_, ComponentKind::kExporter, "test"};
  ::proflow::testing::NullHost host_;
};

// A behaviour bound, not a timing threshold: before the fix shutdown waited out the whole back-off.
constexpr auto kWellBeforeTheBackoffEnds = kBackoff / 2;

TEST_F(ShutdownDeadlineTest, ShutdownDuringQueuedRetryBackoffKeepsItsDeadline) {
  auto e = make(/*queued=*/true);
  ASSERT_TRUE(e->start(host_).isOk());
  ASSERT_TRUE(e->consume(batch()).isOk());
  ASSERT_TRUE(inBackoff());
  const auto t0 = Clock::now();
  e->shutdown(t0 + 2s);
  EXPECT_LT(Clock::now() - t0, kWellBeforeTheBackoffEnds);
  EXPECT_EQ(metrics_.value("proflow_exporter_failed_batches_total", {{"exporter", "test"}}), 1);
}

TEST_F(ShutdownDeadlineTest, ShutdownEndsARetryBackoffInTheCallersThread) {
  auto e = make(/*queued=*/false);
  ASSERT_TRUE(e->start(host_).isOk());
  auto sent = std::async(std::launch::async, [&] { return e->consume(batch()); });
  ASSERT_TRUE(inBackoff());
  const auto t0 = Clock::now();
  e->shutdown(t0 + 2s);
  ASSERT_EQ(sent.wait_for(kWellBeforeTheBackoffEnds), std::future_status::ready);
  EXPECT_LT(Clock::now() - t0, kWellBeforeTheBackoffEnds);
  EXPECT_EQ(sent.get().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace proflow::exporterhelper
