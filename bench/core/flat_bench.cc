// The flat batch model against the protobuf request on the same bodies: a Go CPU profile (and a Go
// heap profile) converted to OTLP by pprof_to_otlp.
//   - decode + encode (flat) vs ParseFromString + SerializeToString (protobuf);
//   - merge of 100 requests (flat Merger over decoded batches vs RequestMerger over parsed requests);
//   - a private copy for a mutating consumer (flat copy vs protobuf deep copy).
//
//   build/bench/bench_flat --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include "core/runtime/allocator_tuning.h"
#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "core/flat/flat_merge.h"
#include "tests/support/pprof_request.h"
#include "core/net/grpc_channel.h"
#include "tests/support/request_merger.h"

namespace proflow::flat {
namespace {

// The OTLP body of a committed pprof fixture, with `service` as its service.name.
std::string otlpBody(const std::string& fixture, const std::string& service) {
  otlp::Request r;
  pprof::PprofToOtlpOptions options;
  options.resource_attributes = {{"service.name", service}};
  const std::string path = std::string(PROFLOW_SOURCE_DIR) + "/tests/core/flat/testdata/" + fixture;
  if (!pprof::pprofBytesToOtlp(net::readFileOrEmpty(path), options, &r).isOk()) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::abort();
  }
  return r.SerializeAsString();
}

const char* fixtureFor(const benchmark::State& state) { return state.range(0) == 0 ? "go_cpu.pb.gz" : "go_heap.pb.gz"; }

void BM_ProtobufParseSerialize(benchmark::State& state) {
  const std::string body = otlpBody(fixtureFor(state), "svc");
  std::string out;
  for (auto _ : state) {
    otlp::Request r;
    if (!r.ParseFromString(body)) std::abort();
    out.clear();
    r.SerializeToString(&out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * body.size()));
}

void BM_FlatDecodeEncode(benchmark::State& state) {
  const std::string body = otlpBody(fixtureFor(state), "svc");
  std::string out;
  for (auto _ : state) {
    Batch b;
    if (!decode(body, &b).request.isOk()) std::abort();
    out.clear();
    encodeTo(b, &out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * body.size()));
}

void BM_FlatDecode(benchmark::State& state) {
  const std::string body = otlpBody(fixtureFor(state), "svc");
  for (auto _ : state) {
    Batch b;
    if (!decode(body, &b).request.isOk()) std::abort();
    benchmark::DoNotOptimize(b.samples.size());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * body.size()));
}

void BM_FlatEncode(benchmark::State& state) {
  const std::string body = otlpBody(fixtureFor(state), "svc");
  Batch b;
  if (!decode(body, &b).request.isOk()) std::abort();
  std::string out;
  for (auto _ : state) {
    out.clear();
    encodeTo(b, &out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * body.size()));
}

constexpr int kMergedRequests = 100;

// 100 bodies of the same program from 10 services (so resources combine), as a gateway batches them.
std::vector<std::string> mergeInputs(const benchmark::State& state) {
  std::vector<std::string> bodies;
  for (int i = 0; i < 10; ++i) bodies.push_back(otlpBody(fixtureFor(state), "svc-" + std::to_string(i)));
  std::vector<std::string> out;
  for (int i = 0; i < kMergedRequests; ++i) out.push_back(bodies[static_cast<size_t>(i % 10)]);
  return out;
}

void BM_ProtobufMerge100(benchmark::State& state) {
  std::vector<otlp::Request> inputs(kMergedRequests);
  const auto bodies = mergeInputs(state);
  for (size_t i = 0; i < bodies.size(); ++i) inputs[i].ParseFromString(bodies[i]);
  for (auto _ : state) {
    otlp::Request merged;
    RequestMerger merger(&merged);
    for (const auto& r : inputs) merger.append(r);
    benchmark::DoNotOptimize(merged.resource_profiles_size());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kMergedRequests);
}

void BM_FlatMerge100(benchmark::State& state) {
  std::vector<Batch> inputs(kMergedRequests);
  const auto bodies = mergeInputs(state);
  for (size_t i = 0; i < bodies.size(); ++i)
    if (!decode(bodies[i], &inputs[i]).request.isOk()) return state.SkipWithError("a merge input does not decode");
  for (auto _ : state) {
    Batch merged;
    Merger merger(&merged);
    for (const auto& b : inputs) merger.expect(b);  // the batch processor knows what it merges
    for (const auto& b : inputs) merger.append(b);
    benchmark::DoNotOptimize(merged.resources.size());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kMergedRequests);
}

void BM_ProtobufDeepCopy(benchmark::State& state) {
  otlp::Request r;
  r.ParseFromString(otlpBody(fixtureFor(state), "svc"));
  for (auto _ : state) {
    otlp::Request copy = r;
    benchmark::DoNotOptimize(copy.resource_profiles_size());
  }
}

void BM_FlatCopy(benchmark::State& state) {
  Batch b;
  if (!decode(otlpBody(fixtureFor(state), "svc"), &b).request.isOk()) return state.SkipWithError("the fixture does not decode");
  for (auto _ : state) {
    Batch copy = b;
    benchmark::DoNotOptimize(copy.samples.size());
  }
}

// malloc settings of the daemon (cmd/proflow), for both models alike.
const bool kTuned = (tuneAllocatorForThroughput(), true);

// Arg 0: Go CPU profile, 1: Go heap profile.
BENCHMARK(BM_ProtobufParseSerialize)->Arg(0)->Arg(1);
BENCHMARK(BM_FlatDecodeEncode)->Arg(0)->Arg(1);
BENCHMARK(BM_FlatDecode)->Arg(0)->Arg(1);
BENCHMARK(BM_FlatEncode)->Arg(0)->Arg(1);
BENCHMARK(BM_ProtobufMerge100)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FlatMerge100)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ProtobufDeepCopy)->Arg(0)->Arg(1);
BENCHMARK(BM_FlatCopy)->Arg(0)->Arg(1);

}  // namespace
}  // namespace proflow::flat
