// CPU per request of a 5-statement transform on a Go CPU profile, against the decode + encode every
// OTLP request costs a gateway anyway. Run: build/bench/bench_transform
#include <benchmark/benchmark.h>

#include <memory>
#include <set>

#include "core/config/config_loader.h"
#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "core/formats/pprof/pprof_to_flat.h"
#include "processors/transform/factory.h"
#include "processors/transform/transform_processor.h"
#include "tests/support/component_config.h"
#include "tests/support/stand_ins.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

std::string goCpuOtlp() {
  flat::Batch b;
  pprof::PprofToOtlpOptions options;
  options.resource_attributes = {{"service.name", "go-api"}, {"process.pid", "42"}, {"host.name", "h1"}};
  const std::string pprof = testing::readFile(std::string(PROFLOW_SOURCE_DIR) + "/tests/core/flat/testdata/go_cpu.pb.gz");
  if (!pprof::pprofBytesToFlat(pprof, options, &b).isOk()) std::abort();
  return flat::encode(b);
}

flat::Batch decoded(const std::string& wire) {
  flat::Batch b;
  if (!flat::decode(wire, &b).request.isOk()) std::abort();
  return b;
}

void BM_DecodeEncode(benchmark::State& state) {
  const std::string wire = goCpuOtlp();
  for (auto _ : state) {
    flat::Batch b = decoded(wire);
    benchmark::DoNotOptimize(flat::encode(b));
  }
}
BENCHMARK(BM_DecodeEncode)->Unit(benchmark::kMicrosecond);

// The transform of bench/ottl/transform_5_statements.yaml, handing what it edits to `sink`.
std::unique_ptr<processors::transform::TransformProcessor> fiveStatements(std::shared_ptr<testing::CaptureConsumer> sink) {
  processors::transform::TransformConfig config;
  const std::string statements =
      testing::readFile(std::string(PROFLOW_SOURCE_DIR) + "/bench/ottl/transform_5_statements.yaml");
  const auto errors = testing::checkComponentConfig(*processors::transform::makeTransformProcessorFactory(),
                                                    statements, "processors.transform", &config);
  if (!errors.empty()) std::abort();
  return std::make_unique<processors::transform::TransformProcessor>(testing::processorSettings("transform", nullptr),
                                                                      config, std::move(sink));
}

void BM_Transform5Statements(benchmark::State& state) {
  const auto base = std::make_shared<const flat::Batch>(decoded(goCpuOtlp()));
  auto sink = std::make_shared<testing::CaptureConsumer>();
  const auto owned = fiveStatements(sink);
  auto& transform = *owned;
  // Each request as a pipeline hands it over: shared, so the transform pays for its private copy.
  for (auto _ : state) {
    if (!transform.consume(Batch(base)).isOk()) std::abort();
    state.PauseTiming();
    sink->batches.clear();  // freeing the edited copy is the next consumer's business
    state.ResumeTiming();
  }
  state.counters["samples"] = static_cast<double>(base->samples.size());
  if (!transform.consume(Batch(base)).isOk()) std::abort();
  size_t edited = 0;  // samples the sample statement applied to
  const flat::Batch& out = sink->batches.back().data();
  for (uint32_t row = 0; row < out.samples.size(); ++row)
    edited += out.samples.attributes[row].size != base->samples.attributes[row].size ? 1 : 0;
  state.counters["samples_edited"] = static_cast<double>(edited);
  {
    std::set<std::vector<int32_t>> distinct;
    for (uint32_t row = 0; row < base->samples.size(); ++row) {
      auto l = base->indexList(base->samples.attributes[row]);
      distinct.insert(std::vector<int32_t>(l.begin(), l.end()));
    }
    state.counters["distinct_lists"] = static_cast<double>(distinct.size());
  }
  state.counters["stacks"] = static_cast<double>(base->stacks.size());
  state.counters["locations"] = static_cast<double>(base->locations.size());
  state.counters["functions"] = static_cast<double>(base->functions.size());
  size_t frames = 0;
  for (const auto& s : base->stacks) frames += s.locations.size;
  state.counters["stack_frames"] = static_cast<double>(frames);
}
BENCHMARK(BM_Transform5Statements)->Unit(benchmark::kMicrosecond);

// As a receiver hands a request over: moved in, held by nobody else, so edited without a copy.
void BM_Transform5StatementsMovedIn(benchmark::State& state) {
  const flat::Batch base = decoded(goCpuOtlp());
  auto sink = std::make_shared<testing::CaptureConsumer>();
  const auto transform = fiveStatements(sink);
  for (auto _ : state) {
    state.PauseTiming();
    flat::Batch request = base;
    state.ResumeTiming();
    if (!transform->consume(Batch(std::move(request))).isOk()) std::abort();
    state.PauseTiming();
    sink->batches.clear();
    state.ResumeTiming();
  }
}
BENCHMARK(BM_Transform5StatementsMovedIn)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace proflow
