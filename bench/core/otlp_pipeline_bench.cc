// OTLP decode -> batch merge -> encode, the work a gateway does per request with the batch processor.
// Reports bytes/s (of serialized input) and profiles/s (items) per core.
//
//   build/bench/bench_otlp_pipeline --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <random>

#include "tests/support/dictionary_builder.h"
#include "tests/support/request_merger.h"

namespace proflow {
namespace {

// A request shaped like an agent's export: `profiles` CPU profiles of one service sharing a
// dictionary, `samples` samples each over stacks of depth 8..40 drawn from 2000 functions.
otlp::Request makeAgentRequest(int profiles, int samples, uint32_t seed) {
  std::mt19937 rng(seed);
  otlp::Request r;
  DictionaryBuilder dict(r.mutable_dictionary());
  auto* rp = r.add_resource_profiles();
  auto* kv = rp->mutable_resource()->add_attributes();
  kv->set_key("service.name");
  kv->mutable_value()->set_string_value("svc-" + std::to_string(seed % 7));
  auto* sp = rp->add_scope_profiles();
  std::vector<int32_t> locations;
  for (int f = 0; f < 2000; ++f) {
    int32_t fn = dict.function("pkg" + std::to_string(f % 50) + ".Type" + std::to_string(f % 13) + ".method" +
                                   std::to_string(f),
                               "", "src/pkg" + std::to_string(f % 50) + "/file.go", f);
    otlp::Location loc;
    loc.set_address(0x400000 + static_cast<uint64_t>(f) * 64);
    auto* line = loc.add_lines();
    line->set_function_index(fn);
    line->set_line(10 + f % 300);
    locations.push_back(dict.location(loc));
  }
  int32_t thread_attr[4];
  for (int t = 0; t < 4; ++t) thread_attr[t] = dict.stringAttribute("thread.name", "worker-" + std::to_string(t));
  for (int p = 0; p < profiles; ++p) {
    auto* prof = sp->add_profiles();
    prof->mutable_sample_type()->set_type_strindex(dict.string("cpu"));
    prof->mutable_sample_type()->set_unit_strindex(dict.string("nanoseconds"));
    prof->set_time_unix_nano(1700000000000000000ull + static_cast<uint64_t>(p) * 10000000000ull);
    prof->set_duration_nano(10000000000ull);
    prof->set_period(10000000);
    std::vector<int32_t> stack;
    for (int s = 0; s < samples; ++s) {
      stack.clear();
      int depth = 8 + static_cast<int>(rng() % 33);
      for (int d = 0; d < depth; ++d) stack.push_back(locations[rng() % locations.size()]);
      auto* sample = prof->add_samples();
      sample->set_stack_index(dict.stack(stack));
      sample->add_attribute_indices(thread_attr[rng() % 4]);
      sample->add_values(10000000 * (1 + static_cast<int64_t>(rng() % 5)));
    }
  }
  return r;
}

constexpr int kRequestsPerBatch = 8;

std::vector<std::string> serializedInputs(int profiles, int samples) {
  std::vector<std::string> out;
  for (int i = 0; i < kRequestsPerBatch; ++i)
    out.push_back(makeAgentRequest(profiles, samples, static_cast<uint32_t>(i)).SerializeAsString());
  return out;
}

void report(benchmark::State& state, size_t bytes_per_iter, int profiles_per_iter) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes_per_iter));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * profiles_per_iter);
}

void BM_Decode(benchmark::State& state) {
  auto inputs = serializedInputs(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  size_t bytes = 0;
  for (const auto& s : inputs) bytes += s.size();
  for (auto _ : state) {
    for (const auto& s : inputs) {
      otlp::Request r;
      benchmark::DoNotOptimize(r.ParseFromString(s));
    }
  }
  report(state, bytes, kRequestsPerBatch * static_cast<int>(state.range(0)));
}

void BM_DecodeMergeEncode(benchmark::State& state) {
  auto inputs = serializedInputs(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  size_t bytes = 0;
  for (const auto& s : inputs) bytes += s.size();
  size_t out_bytes = 0;
  for (auto _ : state) {
    otlp::Request merged;
    RequestMerger merger(&merged);
    for (const auto& s : inputs) {
      otlp::Request r;
      r.ParseFromString(s);
      merger.append(r);
    }
    std::string out = merged.SerializeAsString();
    out_bytes = out.size();
    benchmark::DoNotOptimize(out);
  }
  report(state, bytes, kRequestsPerBatch * static_cast<int>(state.range(0)));
  state.counters["in_bytes"] = static_cast<double>(bytes);
  state.counters["out_bytes"] = static_cast<double>(out_bytes);
}

void BM_Merge(benchmark::State& state) {
  auto inputs = serializedInputs(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  std::vector<otlp::Request> parsed(inputs.size());
  size_t bytes = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    parsed[i].ParseFromString(inputs[i]);
    bytes += inputs[i].size();
  }
  for (auto _ : state) {
    otlp::Request merged;
    RequestMerger merger(&merged);
    for (const auto& r : parsed) merger.append(r);
    benchmark::DoNotOptimize(merged);
  }
  report(state, bytes, kRequestsPerBatch * static_cast<int>(state.range(0)));
}

// (profiles per request, samples per profile)
BENCHMARK(BM_Decode)->Args({1, 200})->Args({10, 1000})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Merge)->Args({1, 200})->Args({10, 1000})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DecodeMergeEncode)->Args({1, 200})->Args({10, 1000})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace proflow
