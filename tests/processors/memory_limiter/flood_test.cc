// Through the daemon: OTLP/gRPC receiver -> memory_limiter -> an exporter that keeps every batch (so
// memory grows). The limiter must start refusing with RESOURCE_EXHAUSTED before the process passes
// limit + spike, and every acknowledged request must have reached the exporter.
#include <grpcpp/grpcpp.h>

#include <fstream>
#include <mutex>
#include <thread>
#if defined(__SANITIZE_ADDRESS__)
extern "C" void __sanitizer_purge_allocator();  // libasan's; GCC ships no header declaring it
#endif

#include "core/component/factory_helpers.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "processors/memory_limiter/factory.h"
#include "processors/memory_limiter/memory_source.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/profile_builder.h"

namespace proflow {
namespace {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;
constexpr uint64_t kMiB = uint64_t{1} << 20;

// Keeps every batch it is given, like an exporter whose backend stalls with an unbounded queue.
struct Retained {
  std::mutex mu;
  std::vector<Batch> batches;
  uint64_t total = 0;
  static Retained& get() {
    static Retained r;
    return r;
  }
};

struct RetainConfig {
  template <class V>
  void visit(V&) {}
};

class RetainExporter final : public Exporter {
 public:
  Status start(Host&) override { return Status::ok(); }
  void shutdown(Deadline) override {}
  Status consume(Batch b) override {
    auto& r = Retained::get();
    std::lock_guard lock(r.mu);
    r.batches.push_back(std::move(b));
    ++r.total;
    return Status::ok();
  }
};

class RetainFactory final : public ExporterFactoryFor<RetainConfig> {
 public:
  std::string_view type() const override { return "retain"; }
  std::string_view description() const override { return "test: keeps every batch"; }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings&, const RetainConfig&) const override {
    return std::make_unique<RetainExporter>();
  }
};

// The limiter trims glibc's heap when soft-limited. Under AddressSanitizer freed memory sits in its
// quarantine and allocator instead, which that trim cannot reach: give it back the same way.
void trimSanitizerHeap() {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_purge_allocator();
#endif
}

// Peak resident set of this process (kernel-maintained high-water mark).
uint64_t peakRss() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  return 0;
}

TEST(MemoryLimiterFlood, RefusesRetryablyStaysUnderTheLimitAndLosesNothingAcknowledged) {
  // A request of several MiB once decoded: retaining a few dozen of them passes any small limit.
  testing::ProfileSpec big = testing::makeProfile(40000);
  auto request = testing::makeRequest("flood", {big});
  ASSERT_GT(request.ByteSizeLong(), 200u * 1024);

  const uint64_t start_rss = processors::memory_limiter::readProcessRss().value_or(0);
  ASSERT_GT(start_rss, 0u);
  const uint64_t limit_mib = start_rss / kMiB + 64, spike_mib = 24;
  int port = testing::freePort();
  std::vector<std::unique_ptr<Factory>> extra;
  extra.push_back(std::make_unique<RetainFactory>());
  auto service = testing::startService(R"(
receivers:
  otlp: { protocols: { grpc: { endpoint: "127.0.0.1:)" + std::to_string(port) + R"(" } } }
processors:
  memory_limiter:
    limit_mib: )" + std::to_string(limit_mib) + R"(
    spike_limit_mib: )" + std::to_string(spike_mib) + R"(
    check_interval: 1ms
    min_trim_interval_when_soft_limited: 0s
exporters:
  retain: {}
service:
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles: { receivers: [otlp], processors: [memory_limiter], exporters: [retain] }
)",
                                           std::move(extra));
  ASSERT_TRUE(service);
  auto stub = collector::ProfilesService::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  auto send = [&] {
    grpc::ClientContext ctx;
    otlp::Response resp;
    return stub->Export(&ctx, request, &resp);
  };

  uint64_t acked = 0, refused = 0;
  // Bounded so a limiter that never refuses fails the test instead of exhausting the machine.
  for (int i = 0; i < 400 && refused < 10; ++i) {
    grpc::Status s = send();
    if (s.ok()) {
      ++acked;
    } else {
      ASSERT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
      EXPECT_NE(s.error_message().find("memory_limiter"), std::string::npos) << s.error_message();
      ++refused;
    }
  }
  ASSERT_EQ(refused, 10u) << "the limiter never refused; acked " << acked;
  EXPECT_GT(acked, 0u);
  const uint64_t peak = peakRss();
  // One request decoded past the last check is the overshoot the design allows; 32 MiB of slack
  // covers it and gRPC's own buffers.
  EXPECT_LT(peak, (limit_mib + spike_mib + 32) * kMiB)
      << "peak " << peak / kMiB << " MiB, start " << start_rss / kMiB << " MiB";
  {
    auto& r = Retained::get();
    std::lock_guard lock(r.mu);
    EXPECT_EQ(r.total, acked);  // every acknowledged request reached the exporter
    r.batches.clear();          // the backend recovers: memory can be given back
  }
  // Below the soft limit again (after trimming), data is accepted again.
  grpc::Status s;
  for (int i = 0; i < 600; ++i) {
    trimSanitizerHeap();
    s = send();
    if (s.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(s.ok()) << s.error_message();
  const telemetry::Labels labels = {{"processor", "memory_limiter"}, {"pipeline", "profiles"}};
  EXPECT_GE(service->metrics().value("proflow_processor_memory_limiter_state_changes_total", labels), 2);
  EXPECT_GE(service->metrics().value("proflow_processor_refused_batches_total", labels), 10);
  service->shutdown();
  EXPECT_EQ(Retained::get().total, acked + (s.ok() ? 1 : 0));
}

}  // namespace
}  // namespace proflow
