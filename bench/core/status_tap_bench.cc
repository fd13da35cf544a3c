// CPU cost of the status page's flame graph tap (core/status):
//   - on the pipeline's thread: a receiver's consume() with and without the TapConsumer in front
//     (the tap shares the flat batch and queues it, or skips it when its queue is full; a no-op
//     pipeline behind);
//   - on the tap's own thread: FlameStore::add of one batch (stacks resolved and summed);
//   - per page refresh: the 15-minute tree of one series as JSON.
// Bodies: the committed Go CPU and heap profiles (tests/core/flat/testdata), as flat batches.
//
//   build/bench/bench_status_tap
#include <benchmark/benchmark.h>

#include "core/flat/flat_decode.h"
#include "tests/support/pprof_request.h"
#include "core/net/grpc_channel.h"
#include "core/status/flame_tap.h"

namespace proflow::status {
namespace {

std::shared_ptr<const flat::Batch> fixture(const benchmark::State& state) {
  const char* name = state.range(0) == 0 ? "go_cpu.pb.gz" : "go_heap.pb.gz";
  otlp::Request r;
  pprof::PprofToOtlpOptions options;
  options.resource_attributes = {{"service.name", "bench"}};
  const std::string path = std::string(PROFLOW_SOURCE_DIR) + "/tests/core/flat/testdata/" + name;
  if (!pprof::pprofBytesToOtlp(net::readFileOrEmpty(path), options, &r).isOk()) std::abort();
  auto b = std::make_shared<flat::Batch>();
  if (!flat::decode(r.SerializeAsString(), b.get()).request.isOk()) std::abort();
  return b;
}

class Accept final : public ProfilesConsumer {
 public:
  Status consume(Batch) override { return Status::ok(); }
};

void BM_ConsumeWithoutTap(benchmark::State& state) {
  const auto data = fixture(state);
  Accept next;
  for (auto _ : state) benchmark::DoNotOptimize(next.consume(Batch(data)));
}

void BM_ConsumeWithTap(benchmark::State& state) {
  const auto data = fixture(state);
  telemetry::MetricsRegistry metrics;
  FlameTap tap({}, metrics);
  TapConsumer consumer(std::make_shared<Accept>(), tap);
  for (auto _ : state) benchmark::DoNotOptimize(consumer.consume(Batch(data)));
  state.counters["skipped"] = static_cast<double>(tap.skippedBatches());
}

// The path a batch takes when the tap keeps up: queued, not skipped. The tap's thread is drained
// every 32 batches outside the timed region.
void BM_ConsumeWithTapQueued(benchmark::State& state) {
  const auto data = fixture(state);
  telemetry::MetricsRegistry metrics;
  FlameTap tap({}, metrics);
  TapConsumer consumer(std::make_shared<Accept>(), tap);
  int n = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(consumer.consume(Batch(data)));
    if (++n % 32 == 0) {
      state.PauseTiming();
      tap.flush();
      state.ResumeTiming();
    }
  }
  state.counters["skipped"] = static_cast<double>(tap.skippedBatches());
}

void BM_StoreAdd(benchmark::State& state) {
  const auto data = fixture(state);
  FlameStore store({});
  const auto now = Clock::now();
  store.add(*data, now);  // the stacks and names are known after the first batch, as in a steady stream
  for (auto _ : state) store.add(*data, now);
  state.counters["samples"] = static_cast<double>(data->samples.size());
  state.counters["memory_bytes"] = static_cast<double>(store.memoryBytes());
}

void BM_TreeJson(benchmark::State& state) {
  const auto data = fixture(state);
  FlameStore store({});
  const auto now = Clock::now();
  store.add(*data, now);
  const std::string type = state.range(0) == 0 ? "cpu/nanoseconds" : "alloc_space/bytes";
  size_t bytes = 0;
  for (auto _ : state) {
    FlameTree t;
    if (!store.tree("bench", type, std::chrono::seconds(900), std::chrono::seconds(0), now, &t)) std::abort();
    bytes = flameTreeJson(t, "15m", "").size();
  }
  state.counters["json_bytes"] = static_cast<double>(bytes);
}

BENCHMARK(BM_ConsumeWithoutTap)->Arg(0);
BENCHMARK(BM_ConsumeWithTap)->Arg(0);
BENCHMARK(BM_ConsumeWithTapQueued)->Arg(0);
BENCHMARK(BM_StoreAdd)->Arg(0)->Arg(1);
BENCHMARK(BM_TreeJson)->Arg(0);

}  // namespace
}  // namespace proflow::status
