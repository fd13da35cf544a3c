// Receive-decode -> batch -> encode in one process with 1, 2, 4 and 8 threads: each thread decodes
// an agent's request (its own service) and hands it to one shared batch processor
// (send_batch_size 100); flushed requests are encoded by the downstream. Items are requests. The
// encode runs on the processor's one sender thread, so past one core it bounds the rate (in the
// daemon that thread only enqueues into the exporter, whose consumers encode in parallel).
//
//   build/bench/bench_batch_threads --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

#include <atomic>
#include <thread>

#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "core/telemetry/metrics.h"
#include "processors/batch/batch_processor.h"
#include "tests/support/profile_builder.h"

namespace proflow {
namespace {

class EncodingSink final : public ProfilesConsumer {
 public:
  Status consume(Batch batch) override {
    bytes_ += flat::encode(batch.data()).size();  // as the OTLP exporters encode
    return Status::ok();
  }
  std::atomic<uint64_t> bytes_{0};
};

struct Shared {
  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry telemetry{registry, ComponentKind::kProcessor, "batch"};
  std::shared_ptr<EncodingSink> sink = std::make_shared<EncodingSink>();
  std::unique_ptr<processors::batch::BatchProcessor> processor;
};
Shared* g_shared = nullptr;

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
    processors::batch::BatchProcessorConfig c;
    c.send_batch_size = 100;
    c.timeout = std::chrono::milliseconds(200);
    CreateSettings s{{"batch", ""}, ComponentKind::kProcessor,
                     std::make_shared<spdlog::logger>("batch", std::make_shared<spdlog::sinks::null_sink_mt>()),
                     &g_shared->telemetry, nullptr};
    g_shared->processor = std::make_unique<processors::batch::BatchProcessor>(s, c, g_shared->sink);
    static NullHost host;
    (void)g_shared->processor->start(host);
  }
  const std::string wire = agentRequest(state.thread_index());
  for (auto _ : state) {
    // As the OTLP receiver decodes: straight into a flat batch, validated.
    auto data = std::make_shared<flat::Batch>();
    (void)flat::decode(wire, data.get());
    Batch batch(std::shared_ptr<const flat::Batch>(std::move(data)));
    // A refusal is backpressure from a busy downstream: resend, as a receiver's client would.
    while (!g_shared->processor->consume(batch).isOk()) std::this_thread::yield();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * wire.size()));
  if (state.thread_index() == 0) {
    g_shared->processor->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(30));
    delete g_shared;
    g_shared = nullptr;
  }
}

BENCHMARK(BM_DecodeBatchEncode)->Threads(1)->Threads(2)->Threads(4)->Threads(8)->UseRealTime();

}  // namespace
}  // namespace proflow
