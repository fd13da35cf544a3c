// Throughput of the bounded decompressors and OTLP/JSON on profile-like data.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>

#include "core/compression/compression.h"
#include "tests/support/flat_request.h"
#include "core/formats/otlp_json/otlp_json.h"
#include "core/model/otlp_types.h"

namespace {
using namespace proflow;

// A profiles request with many small samples: what an agent sends every few seconds.
otlp::Request makeRequest(int samples) {
  std::mt19937 rng(1);
  otlp::Request req;
  auto* dict = req.mutable_dictionary();
  for (int i = 0; i < 2000; ++i) dict->add_string_table("pkg/module.function_" + std::to_string(i));
  for (int i = 0; i < 100; ++i) {
    auto* l = dict->add_link_table();
    l->set_trace_id(std::string(16, static_cast<char>(i)));
    l->set_span_id(std::string(8, static_cast<char>(i)));
  }
  auto* p = req.add_resource_profiles()->add_scope_profiles()->add_profiles();
  p->set_time_unix_nano(1700000000000000000ULL);
  p->set_profile_id(std::string(16, 'p'));
  for (int i = 0; i < samples; ++i) {
    auto* s = p->add_samples();
    s->set_stack_index(static_cast<int>(rng() % 5000));
    s->set_link_index(static_cast<int>(rng() % 100));
    s->add_values(static_cast<int64_t>(rng() % 100000000));
  }
  return req;
}

void decompressBench(benchmark::State& state, compression::Codec codec) {
  std::string plain = makeRequest(50000).SerializeAsString();
  std::string z, out;
  if (Status s = compression::compress(codec, plain, z); !s.isOk()) {
    state.SkipWithError(s.toString().c_str());
    return;
  }
  for (auto _ : state) {
    Status s = compression::decompress(codec, z, out, compression::Limits{});
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * plain.size()));
  state.counters["ratio"] = static_cast<double>(plain.size()) / static_cast<double>(z.size());
}
void BM_DecompressGzip(benchmark::State& s) { decompressBench(s, compression::Codec::kGzip); }
void BM_DecompressZstd(benchmark::State& s) { decompressBench(s, compression::Codec::kZstd); }
void BM_DecompressLz4(benchmark::State& s) { decompressBench(s, compression::Codec::kLz4); }
BENCHMARK(BM_DecompressGzip);
BENCHMARK(BM_DecompressZstd);
BENCHMARK(BM_DecompressLz4);

// OTLP/JSON straight from and to the flat batch (what the receivers and exporters run).
flat::Batch makeBatch(int samples) {
  flat::Batch batch;
  if (!flat::fromRequest(makeRequest(samples), &batch).isOk()) std::abort();
  return batch;
}

void BM_OtlpJsonPrint(benchmark::State& state) {
  const flat::Batch batch = makeBatch(20000);
  size_t bytes = 0;
  std::string out;
  for (auto _ : state) {
    otlp_json::encode(batch, &out);
    bytes += out.size();
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_OtlpJsonPrint);

void BM_OtlpJsonParse(benchmark::State& state) {
  const std::string json = otlp_json::encode(makeBatch(20000));
  flat::Batch out;
  for (auto _ : state) {
    otlp_json::DecodeResult r = otlp_json::decode(json, &out);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * json.size()));
}
BENCHMARK(BM_OtlpJsonParse);

}  // namespace
