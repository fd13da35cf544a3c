// Receive-decode -> batch -> encode in one process with 1, 2, 4 and 8 threads: each thread decodes
// an agent's request (its own service) and hands it to one shared batch processor
// (send_batch_size 100), which hands what it flushes to an exporter helper with the default queue
// (10 consumers) whose sender encodes the OTLP wire, as the daemon's `otlp_grpc` exporter does. Items are
// requests.
//
//   build/bench/bench_batch_threads --benchmark_counters_tabular=true
//   BENCH_SHARDS=64 build/bench/bench_batch_threads   # the processor's `shards` (default: two per CPU)
#include <benchmark/benchmark.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

#include <atomic>
#include <thread>

#include "core/runtime/allocator_tuning.h"
#include "core/exporterhelper/exporter_helper.h"
#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "core/telemetry/metrics.h"
#include "processors/batch/batch_processor.h"
#include "tests/support/profile_builder.h"

namespace proflow {
namespace {

// The exporter's one delivery attempt, without the socket: the encode the OTLP exporters do.
class EncodingSender final : public exporterhelper::Sender {
 public:
  explicit EncodingSender(std::atomic<uint64_t>* bytes) : bytes_(bytes) {}
  Status push(const Batch& batch, Deadline) override {
    *bytes_ += flat::encode(batch.data()).size();
    return Status::ok();
  }

 private:
  std::atomic<uint64_t>* bytes_;
};

std::shared_ptr<spdlog::logger> nullLogger(const std::string& name) {
  return std::make_shared<spdlog::logger>(name, std::make_shared<spdlog::sinks::null_sink_mt>());
}

struct Shared {
  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry telemetry{registry, ComponentKind::kProcessor, "batch"};
  telemetry::ComponentTelemetry exporter_telemetry{registry, ComponentKind::kExporter, "otlp"};
  std::atomic<uint64_t> encoded_bytes{0};
  std::shared_ptr<exporterhelper::ExporterHelper> exporter;
  std::unique_ptr<processors::batch::BatchProcessor> processor;
};
Shared* g_shared = nullptr;
const bool kTuned = (tuneAllocatorForThroughput(), true);  // as the daemon does (cmd/proflow)

class NullHost : public Host {
 public:
  void reportFatalError(const ComponentId&, const Status&) override {}
};

std::string agentRequest(int thread) {
  std::vector<testing::ProfileSpec> profiles;
  for (int p = 0; p < 2; ++p) profiles.push_back(testing::makeProfile(400, thread * 10 + p));
  return testing::makeRequest("svc-" + std::to_string(thread), profiles).SerializeAsString();
}

void BM_DecodeBatchEncode(benchmark::State& state) {
  if (state.thread_index() == 0) {
    g_shared = new Shared();
    static NullHost host;
    CreateSettings e{{"otlp", ""}, ComponentKind::kExporter, nullLogger("otlp"), &g_shared->exporter_telemetry,
                     nullptr};
    g_shared->exporter = std::make_shared<exporterhelper::ExporterHelper>(
        e, exporterhelper::ExporterHelperConfig{}, std::make_unique<EncodingSender>(&g_shared->encoded_bytes));
    (void)g_shared->exporter->start(host);
    processors::batch::BatchProcessorConfig c;
    c.send_batch_size = 100;
    c.timeout = std::chrono::milliseconds(200);
    if (const char* shards = std::getenv("BENCH_SHARDS")) c.shards = static_cast<uint32_t>(std::atoi(shards));
    CreateSettings s{{"batch", ""}, ComponentKind::kProcessor, nullLogger("batch"), &g_shared->telemetry, nullptr};
    g_shared->processor = std::make_unique<processors::batch::BatchProcessor>(s, c, g_shared->exporter);
    (void)g_shared->processor->start(host);
  }
  const std::string wire = agentRequest(state.thread_index());
  for (auto _ : state) {
    // As the OTLP receiver decodes: straight into a flat batch, validated.
    auto data = std::make_shared<flat::Batch>();
    (void)flat::decode(wire, data.get());
    Batch batch(std::shared_ptr<const flat::Batch>(std::move(data)));
    // A refusal is backpressure from a busy downstream: back off briefly and resend, as a receiver's
    // client does after a 429 (spinning would count the wait as work).
    while (!g_shared->processor->consume(batch).isOk()) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * wire.size()));
  if (state.thread_index() == 0) {
    const Deadline drain = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    g_shared->processor->shutdown(drain);
    g_shared->exporter->shutdown(drain);
    delete g_shared;
    g_shared = nullptr;
  }
}

// The machine's ceiling: the decode alone, no shared state. Its 2-thread / 1-thread ratio is what
// the host gives two busy threads (hyperthreads and neighbours included), side by side.
void BM_DecodeOnly(benchmark::State& state) {
  const std::string wire = agentRequest(state.thread_index());
  for (auto _ : state) {
    flat::Batch data;
    benchmark::DoNotOptimize(flat::decode(wire, &data));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DecodeOnly)->Threads(1)->Threads(2)->UseRealTime();

// Time: wall clock (throughput); CPU: the whole process's, the exporter's encoding threads included,
// so "CPU" per request staying flat as threads are added says nothing contends.
BENCHMARK(BM_DecodeBatchEncode)->Threads(1)->Threads(2)->Threads(4)->Threads(8)->UseRealTime()->MeasureProcessCPUTime();

}  // namespace
}  // namespace proflow
