// Throughput of the pprof path a receiver + pprof exporter takes: gzip decode + validate -> flat
// batch -> pprof -> gzip encode, on a generated large profile (>= 1 MB gzip, many distinct stacks) and on
// any files named in PROFLOW_BENCH_PPROF_FILES (colon-separated), e.g. real Go profiles.
// `pprof_bench --write-large=FILE` writes the generated profile for the Go side-by-side (gobench/).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

#include "core/runtime/allocator_tuning.h"
#include "core/flat/flat_batch.h"
#include "core/formats/pprof/flat_to_pprof.h"
#include "core/formats/pprof/pprof_to_flat.h"
#include "core/formats/pprof/pprof_view.h"

namespace proflow::pprof {
namespace {

// A CPU-like profile: 4000 functions, 30000 locations, 120000 samples with 8-40 frames each and
// span/trace labels on a third of them. Deterministic.
std::string largeProfile() {
  Profile p;
  p.add_string_table("");
  auto str = [&](const std::string& s) {
    p.add_string_table(s);
    return static_cast<int64_t>(p.string_table_size() - 1);
  };
  auto* st = p.add_sample_type();
  st->set_type(str("samples"));
  st->set_unit(str("count"));
  st = p.add_sample_type();
  st->set_type(str("cpu"));
  st->set_unit(str("nanoseconds"));
  p.set_period(10000000);
  auto* m = p.add_mapping();
  m->set_id(1);
  m->set_memory_start(0x400000);
  m->set_memory_limit(0x4000000);
  m->set_filename(str("/usr/bin/service"));
  m->set_build_id(str("0f3c5e7a9b1d2f4e6a8c0e2f4a6c8e0a"));
  m->set_has_functions(true);
  std::mt19937_64 rng(7);
  const int nfunc = 4000, nloc = 30000, nsamples = 120000;
  for (int i = 1; i <= nfunc; ++i) {
    auto* f = p.add_function();
    f->set_id(i);
    f->set_name(str("github.com/example/service/pkg" + std::to_string(i % 97) + ".(*Type" + std::to_string(i % 13) +
                    ").Method" + std::to_string(i)));
    f->set_system_name(f->name());
    f->set_filename(str("service/pkg" + std::to_string(i % 97) + "/file" + std::to_string(i % 31) + ".go"));
  }
  for (int i = 1; i <= nloc; ++i) {
    auto* l = p.add_location();
    l->set_id(i);
    l->set_mapping_id(1);
    l->set_address(0x400000 + 16 * static_cast<uint64_t>(i));
    for (int k = 0; k < 1 + (i % 4 == 0); ++k) {
      auto* ln = l->add_line();
      ln->set_function_id(1 + rng() % nfunc);
      ln->set_line(static_cast<int64_t>(10 + rng() % 2000));
    }
  }
  const int64_t span_key = str("span_id"), trace_key = str("trace_id");
  for (int i = 0; i < nsamples; ++i) {
    auto* s = p.add_sample();
    int depth = 8 + static_cast<int>(rng() % 33);
    for (int d = 0; d < depth; ++d) s->add_location_id(1 + rng() % nloc);
    int64_t n = 1 + static_cast<int64_t>(rng() % 5);
    s->add_value(n);
    s->add_value(n * 10000000);
    if (i % 3 == 0) {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(rng()));
      auto* l = s->add_label();
      l->set_key(span_key);
      l->set_str(str(buf));
      std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(rng()),
                    static_cast<unsigned long long>(rng()));
      l = s->add_label();
      l->set_key(trace_key);
      l->set_str(str(buf));
    }
  }
  std::string gz;
  if (!encodeProfile(p, &gz).isOk()) std::abort();
  return gz;
}

const std::string& large() {
  static const std::string gz = largeProfile();
  return gz;
}

// The full path through the flat batch; returns the encoded output size.
size_t roundTrip(const std::string& input, int level = kDefaultGzipLevel) {
  flat::Batch batch;
  DecodeOptions d;
  d.limits.max_output_bytes = 1u << 30;
  if (!pprofBytesToFlat(input, {}, &batch, d).isOk()) std::abort();
  std::vector<EncodedPprof> back;
  if (!flatToPprofBytes(batch, &back, {}, Encoding::kGzip, level).isOk() || back.size() != 1) std::abort();
  return back[0].data.size();
}

void runFull(benchmark::State& state, const std::string& input, int level = kDefaultGzipLevel) {
  for (auto _ : state) benchmark::DoNotOptimize(roundTrip(input, level));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * input.size()));
  state.counters["input_bytes"] = static_cast<double>(input.size());
}

void BM_Large_RoundTrip(benchmark::State& state) { runFull(state, large()); }
BENCHMARK(BM_Large_RoundTrip)->Unit(benchmark::kMillisecond);

// Same gzip level as Go's profile.Write (6), for the side-by-side.
void BM_Large_RoundTripGzip6(benchmark::State& state) { runFull(state, large(), 6); }
BENCHMARK(BM_Large_RoundTripGzip6)->Unit(benchmark::kMillisecond);

// The round trip's phases, one at a time, on one input (registered for the large profile and for
// each file): what each step costs, and so how much of the round trip is the OTLP model (phases 3
// and 4) rather than decoding and encoding pprof (1, 2, 5).
std::string gunzipped(const std::string& gz) {
  std::string raw;
  if (!decompressProfile(gz, &raw, {1u << 30}).isOk()) std::abort();
  return raw;
}

void phase1Gunzip(benchmark::State& state, const std::string& gz) {
  for (auto _ : state) benchmark::DoNotOptimize(gunzipped(gz));
}

void phase2ParseAndValidate(benchmark::State& state, const std::string& gz) {
  const std::string raw = gunzipped(gz);
  for (auto _ : state) {
    ProfileView view;
    if (!parseProfileView(raw, &view).isOk() || !validateProfile(view).isOk()) std::abort();
  }
}

// Parse + validate + convert to the flat batch from uncompressed bytes: phase 3 = this - phase 2.
void phase3ToFlat(benchmark::State& state, const std::string& gz) {
  const std::string raw = gunzipped(gz);
  for (auto _ : state) {
    flat::Batch batch;
    if (!pprofBytesToFlat(raw, {}, &batch, {{1u << 30}}).isOk()) std::abort();
  }
}

void phase4ToPprofBytes(benchmark::State& state, const std::string& gz) {
  flat::Batch batch;
  if (!pprofBytesToFlat(gz, {}, &batch, {{1u << 30}}).isOk()) std::abort();
  for (auto _ : state) {
    std::vector<EncodedPprof> back;
    if (!flatToPprofBytes(batch, &back, {}, Encoding::kRaw).isOk()) std::abort();
  }
}

void phase5Gzip(benchmark::State& state, const std::string& gz) {
  flat::Batch batch;
  if (!pprofBytesToFlat(gz, {}, &batch, {{1u << 30}}).isOk()) std::abort();
  std::vector<EncodedPprof> back;
  if (!flatToPprofBytes(batch, &back, {}, Encoding::kRaw).isOk()) std::abort();
  for (auto _ : state) {
    std::string out;
    if (!compressProfile(back[0].data, &out).isOk()) std::abort();
  }
}

// BM_<kind>_Phase1_Gunzip<suffix> ...; `input` is called when a phase runs (the large profile is
// generated only if one of its benchmarks is selected).
void registerPhases(const std::string& kind, const std::string& suffix, std::function<const std::string&()> input,
                    benchmark::TimeUnit unit) {
  using Phase = void (*)(benchmark::State&, const std::string&);
  const std::pair<const char*, Phase> phases[] = {
      {"Phase1_Gunzip", phase1Gunzip},           {"Phase2_ParseAndValidate", phase2ParseAndValidate},
      {"Phase3_ToFlat", phase3ToFlat},           {"Phase4_ToPprofBytes", phase4ToPprofBytes},
      {"Phase5_Gzip", phase5Gzip}};
  for (const auto& [phase, fn] : phases) {
    benchmark::RegisterBenchmark(("BM_" + kind + "_" + phase + suffix).c_str(), [input, fn = fn](benchmark::State& s) {
      fn(s, input());
    })->Unit(unit);
  }
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void registerFiles() {
  const char* env = std::getenv("PROFLOW_BENCH_PPROF_FILES");
  if (env == nullptr) return;
  std::stringstream list(env);
  for (std::string path; std::getline(list, path, ':');) {
    if (path.empty()) continue;
    auto data = std::make_shared<std::string>(readAll(path));
    const std::string base = path.substr(path.find_last_of('/') + 1), name = "BM_File_RoundTrip/" + base;
    benchmark::RegisterBenchmark(name.c_str(), [data](benchmark::State& s) { runFull(s, *data); })
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((name + "/gzip6").c_str(), [data](benchmark::State& s) { runFull(s, *data, 6); })
        ->Unit(benchmark::kMicrosecond);
    registerPhases("File", "/" + base, [data]() -> const std::string& { return *data; }, benchmark::kMicrosecond);
  }
}

}  // namespace
}  // namespace proflow::pprof

int main(int argc, char** argv) {
  proflow::tuneAllocatorForThroughput();  // as the daemon does (cmd/proflow)
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--write-large=", 0) == 0) {
      std::ofstream(arg.substr(14), std::ios::binary) << proflow::pprof::large();
      return 0;
    }
  }
  proflow::pprof::registerPhases("Large", "", proflow::pprof::large, benchmark::kMillisecond);
  proflow::pprof::registerFiles();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
